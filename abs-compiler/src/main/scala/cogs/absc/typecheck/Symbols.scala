package cogs.absc.typecheck

import scala.collection.immutable.ListMap

import cogs.absc.ast._

/*
 * Symbols: what names denote after resolution.
 *
 * Every declaration of the program (and of the prelude, the standard library) becomes one
 * symbol object. Symbols have identity: two symbols are the same declaration only if they
 * are the same object (`eq`); they never compare structurally. The mutable fields are
 * filled in while the checker runs and are stable once `TypeChecker.check` has returned a
 * `TypedProgram`; later phases only read them.
 */

/** A declared entity that a name can denote. */
sealed abstract class Symbol {

  /** The simple name, as declared. */
  def name: String

  /** Where it is declared (at its name). */
  def pos: Pos

  /**
   * The fully qualified name: `Module.name` for module-level declarations
   * (`ABS.StdLib.List`, `Bank.Account`), `Module.Class.member` for methods and fields,
   * the bare name for local variables and type parameters.
   */
  def qualifiedName: String

  /** What it is, for messages: "function", "data type", "local variable", ... */
  def kind: String

  override def toString: String = s"$kind $qualifiedName"
}

/**
 * A module after resolution. `declarations` lists its own declarations in source order
 * (for a data type: the type itself; its constructors and selector functions are reached
 * through it). `exported` is everything other modules may import from it, including
 * re-exported names of other modules.
 */
final class ModuleSym private[typecheck] (val name: String, val decl: ModuleDecl, val isPrelude: Boolean)
    extends Symbol {
  def pos: Pos = decl.pos
  def qualifiedName: String = name
  def kind: String = "module"

  /** The file the module was read from. */
  def file: String = decl.pos.file

  private[typecheck] var decls: List[DeclSym] = Nil
  private[typecheck] var exportedNames: Map[(Namespace, String), Set[DeclSym]] = Map.empty

  /** Own declarations (data types, synonyms, exceptions' constructors, functions, interfaces, classes, traits) in source order. */
  def declarations: List[DeclSym] = decls

  /** Data types declared here, in source order. */
  def dataTypes: List[DataTypeSym] = decls.collect { case d: DataTypeSym => d }

  /** Exception constructors declared here (`exception E(..)`), in source order. */
  def exceptions: List[ConstructorSym] = decls.collect { case c: ConstructorSym if c.isException => c }

  /** Functions declared here (including partial and builtin ones), in source order; selectors are not included. */
  def functions: List[FunctionSym] = decls.collect { case f: FunctionSym => f }

  def interfaces: List[InterfaceSym] = decls.collect { case i: InterfaceSym => i }

  def classes: List[ClassSym] = decls.collect { case c: ClassSym => c }

  def typeSynonyms: List[TypeSynSym] = decls.collect { case t: TypeSynSym => t }

  /** Everything this module exports (own and re-exported declarations), without duplicates. */
  def exported: List[DeclSym] = exportedNames.values.flatten.toList.distinct

  /** The main block, if the module has one. */
  def main: Option[Block] = decl.main
}

/** The name spaces of a module: the same name may denote one thing in each. */
sealed abstract class Namespace(val label: String) extends Product with Serializable
object Namespace {
  /** Data types, interfaces and type synonyms. */
  case object Type extends Namespace("type")
  /** Data constructors and exception constructors. */
  case object Constructor extends Namespace("constructor")
  /** Functions and selector functions. */
  case object Function extends Namespace("function")
  /** Partial functions (`def List<B> map<A, B>(f)(List<A> l)`): `map` may name both a function and a partial function. */
  case object PartialFunction extends Namespace("partial function")
  case object Class extends Namespace("class")
  case object Trait extends Namespace("trait")
  val all: List[Namespace] = List(Type, Constructor, Function, PartialFunction, Class, Trait)
}

/** A module-level declaration. */
sealed abstract class DeclSym extends Symbol {
  def module: ModuleSym
  def namespace: Namespace
  def qualifiedName: String = s"${module.name}.$name"
}

/** What a type name can denote: a data type, an interface or a type synonym. */
sealed abstract class TypeSym extends DeclSym {
  def namespace: Namespace = Namespace.Type
}

/** A type parameter of a data type, function or (parametric) type synonym. */
final class TypeParamSym private[typecheck] (val name: String, val pos: Pos) extends Symbol {
  def qualifiedName: String = name
  def kind: String = "type parameter"
}

/**
 * A data type: `data List<A> = Nil | Cons(A head, List<A> tail);`, and the built-in types
 * of the prelude (`Int`, `Rat`, `Float`, `String`, `Fut<A>`, `Destiny`, `Exception`, which
 * are declared there without constructors). `ABS.StdLib.Exception` is open: every
 * `exception` declaration of the program adds a constructor to it.
 */
final class DataTypeSym private[typecheck] (val name: String, val module: ModuleSym, val decl: DataDecl)
    extends TypeSym {
  def pos: Pos = decl.pos
  def kind: String = "data type"
  private[typecheck] var tparams: List[TypeParamSym] = Nil
  private[typecheck] var ctors: List[ConstructorSym] = Nil

  def typeParams: List[TypeParamSym] = tparams

  /** The constructors, in declaration order (for `Exception`: every exception of the program). */
  def constructors: List[ConstructorSym] = ctors

  /** Selector (accessor) functions defined by named constructor arguments. */
  private[typecheck] var selectorFns: List[FunctionSym] = Nil
  def selectors: List[FunctionSym] = selectorFns

  /** The type with its own parameters as arguments: `List<A>`. */
  def genericType: Type = Type.Data(this, tparams.map(Type.Param(_)))
}

/** `type Name = String;` Uses of a synonym are expanded: no `Type` ever mentions one. */
final class TypeSynSym private[typecheck] (val name: String, val module: ModuleSym, val decl: TypeSynDecl)
    extends TypeSym {
  def pos: Pos = decl.pos
  def kind: String = "type synonym"
  private[typecheck] var tparams: List[TypeParamSym] = Nil
  private[typecheck] var rhs: Type = Type.Error
  def typeParams: List[TypeParamSym] = tparams
  /** What the synonym stands for (fully expanded; in terms of `typeParams` if parametric). */
  def expansion: Type = rhs
}

/**
 * A constructor: of a data type (`Cons`), or of `ABS.StdLib.Exception` (an `exception`
 * declaration: `decl` is then the `ExceptionDecl`). Argument types are in terms of the
 * data type's type parameters.
 */
final class ConstructorSym private[typecheck] (val name: String, val module: ModuleSym, val dataType: DataTypeSym,
    val decl: Node) extends DeclSym {
  def pos: Pos = decl.pos
  def namespace: Namespace = Namespace.Constructor
  def kind: String = if (isException) "exception" else "constructor"
  private[typecheck] var args: List[Type] = Nil
  private[typecheck] var sels: List[Option[String]] = Nil
  private[typecheck] var keys: List[Option[String]] = Nil

  def isException: Boolean = decl.isInstanceOf[ExceptionDecl]

  def argTypes: List[Type] = args

  /** The selector name of each argument, if it has one. */
  def selectorNames: List[Option[String]] = sels

  /** The Model API's key of each argument, `[HTTPName: "key"]` on its type, if it has one. */
  def httpKeys: List[Option[String]] = keys

  def arity: Int = args.length

  /** Position among its data type's constructors. */
  def index: Int = dataType.constructors.indexWhere(_ eq this)
}

/** How a function is defined. */
sealed trait FunctionKind extends Product with Serializable
object FunctionKind {
  /** By a pure expression (`ExpBody`). */
  case object Defined extends FunctionKind
  /** `builtin`: the backend provides it (see the prelude for the standard library's). */
  case object Builtin extends FunctionKind
  /** An accessor generated by a named constructor argument: returns argument `argIndex` of the constructors that have it. */
  final case class Selector(dataType: DataTypeSym, argName: String) extends FunctionKind
}

/**
 * A function: ordinary (`def Int f(Int x) = ..`), builtin, partial (`def List<B> map<A, B>(f)(List<A> l)`),
 * or a selector (`head`, `fst`, `fromJust`, ... are selectors of the prelude's data types).
 *
 * For a partial function, `funParams` are its function parameters with their inferred
 * function types; type variables of those types that are not declared type parameters
 * (a function parameter whose result is only passed on, say) become extra type
 * parameters, listed after the declared ones in `typeParams`.
 */
final class FunctionSym private[typecheck] (val name: String, val module: ModuleSym, val decl: Option[FunctionDecl],
    val functionKind: FunctionKind, val pos: Pos) extends DeclSym {
  def namespace: Namespace = if (isPartial) Namespace.PartialFunction else Namespace.Function
  def kind: String = if (isPartial) "partial function" else "function"
  private[typecheck] var tparams: List[TypeParamSym] = Nil
  private[typecheck] var ps: List[LocalSym] = Nil
  private[typecheck] var result: Type = Type.Error
  private[typecheck] var fps: List[FunParamSym] = Nil

  def typeParams: List[TypeParamSym] = tparams
  def params: List[LocalSym] = ps
  def paramTypes: List[Type] = ps.map(_.tpe)
  def resultType: Type = result
  def funParams: List[FunParamSym] = fps
  def isPartial: Boolean = decl.exists(_.isPartial)
  def isBuiltin: Boolean = functionKind == FunctionKind.Builtin
  def isSelector: Boolean = functionKind.isInstanceOf[FunctionKind.Selector]

  /** The body of a function defined by an expression. */
  def body: Option[PureExp] = decl.flatMap(d => d.body match {
    case ExpBody(e) => Some(e)
    case _ => None
  })
}

/**
 * A function parameter of a partial function (the `f` of `map(f)(l)`), with the function
 * type inferred from its uses in the body; `None` if the body never calls it.
 */
final class FunParamSym private[typecheck] (val name: String, val owner: FunctionSym, val decl: FunParam) extends Symbol {
  def pos: Pos = decl.pos
  def qualifiedName: String = name
  def kind: String = "function parameter"
  private[typecheck] var fun: Option[Type.Fun] = None
  def tpe: Option[Type.Fun] = fun
}

/**
 * An interface. `methods` holds every method callable through it, its own and inherited
 * ones (an inherited method keeps its declaring interface as `owner`).
 */
final class InterfaceSym private[typecheck] (val name: String, val module: ModuleSym, val decl: InterfaceDecl)
    extends TypeSym {
  def pos: Pos = decl.pos
  def kind: String = "interface"
  private[typecheck] var supers: List[InterfaceSym] = Nil
  private[typecheck] var own: List[MethodSym] = Nil
  private[typecheck] var all: ListMap[String, MethodSym] = ListMap.empty
  private[typecheck] var ancestors: Set[InterfaceSym] = Set.empty

  /** The interfaces named in `extends`. */
  def directSupers: List[InterfaceSym] = supers

  /** This interface and every interface it extends, directly or not (`ABS.StdLib.Object` included). */
  def allSupers: Set[InterfaceSym] = ancestors + this

  def ownMethods: List[MethodSym] = own
  def methods: ListMap[String, MethodSym] = all
  def method(name: String): Option[MethodSym] = all.get(name)
}

/**
 * A class. Its instances have every interface type in `allInterfaces`. `methods` are the
 * methods it defines (those from used traits included), each with its `MethodDecl`.
 */
final class ClassSym private[typecheck] (val name: String, val module: ModuleSym, val decl: ClassDecl)
    extends DeclSym {
  def pos: Pos = decl.pos
  def namespace: Namespace = Namespace.Class
  def kind: String = "class"
  private[typecheck] var ifaces: List[InterfaceSym] = Nil
  private[typecheck] var ps: List[FieldSym] = Nil
  private[typecheck] var fs: List[FieldSym] = Nil
  private[typecheck] var ms: ListMap[String, MethodSym] = ListMap.empty

  /** The interfaces named in `implements` (`ABS.StdLib.Object` if none). */
  def interfaces: List[InterfaceSym] = ifaces
  /** Every interface type its objects have. */
  def allInterfaces: Set[InterfaceSym] = ifaces.iterator.flatMap(_.allSupers).toSet

  /** Class parameters: fields initialised by `new C(..)`, in order. */
  def params: List[FieldSym] = ps
  /** Fields declared in the body, in order. */
  def bodyFields: List[FieldSym] = fs
  def fields: List[FieldSym] = ps ++ fs
  def field(name: String): Option[FieldSym] = fields.find(_.name == name)

  def methods: ListMap[String, MethodSym] = ms
  def method(name: String): Option[MethodSym] = ms.get(name)

  def init: Option[Block] = decl.init
  def recover: List[SwitchBranch] = decl.recover
  /** Active class: it has a `run` method, called asynchronously after the init block. */
  def runMethod: Option[MethodSym] = ms.get("run")

  /** `[Foreign]` (ABS.FLI): its methods may be replaced by a foreign class bound at run time. */
  def isForeign: Boolean = Annotations.has(decl.annotations, Annotations.Foreign)
}

/** A trait: a set of method definitions applied to classes by `uses`. */
final class TraitSym private[typecheck] (val name: String, val module: ModuleSym, val decl: TraitDecl) extends DeclSym {
  def pos: Pos = decl.pos
  def namespace: Namespace = Namespace.Trait
  def kind: String = "trait"
  private[typecheck] var ms: List[MethodDecl] = Nil
  /** Its methods after applying its operations (the definitions as written in the trait). */
  def methods: List[MethodDecl] = ms
}

/**
 * A method: declared in an interface (`decl == None`: only a signature) or defined in a
 * class (`decl` is its definition; for a method that comes from a trait, a copy of the
 * trait's definition made for this class, so that each class has its own nodes).
 */
final class MethodSym private[typecheck] (val name: String, val owner: DeclSym, val sig: MethodSig,
    val decl: Option[MethodDecl]) extends Symbol {
  def pos: Pos = sig.pos
  def qualifiedName: String = s"${owner.qualifiedName}.$name"
  def kind: String = "method"
  private[typecheck] var ps: List[LocalSym] = Nil
  private[typecheck] var result: Type = Type.Error

  def params: List[LocalSym] = ps
  def paramTypes: List[Type] = ps.map(_.tpe)
  def resultType: Type = result

  def ownerClass: Option[ClassSym] = owner match { case c: ClassSym => Some(c); case _ => None }
  def ownerInterface: Option[InterfaceSym] = owner match { case i: InterfaceSym => Some(i); case _ => None }
  def body: Option[Block] = decl.map(_.body)

  def isAtomic: Boolean = Annotations.has(sig.annotations, "Atomic")
  def isReadonly: Boolean = Annotations.has(sig.annotations, "Readonly")
  /** `[HTTPCallable]`: callable through the Model API (meaningful on interface methods, see HttpAnnotations). */
  def isHttpCallable: Boolean = Annotations.has(sig.annotations, Annotations.HttpCallable)
}

/** A variable of some kind: a local (parameter, variable, pattern variable, ...) or a field. */
sealed abstract class VarSym extends Symbol {
  def tpe: Type
  /** Declared `[Final]`: cannot be assigned after its initialisation. */
  def isFinal: Boolean
}

/** A field: a class parameter (`isClassParam`, `decl` is its `Param`) or a field declaration (`decl` is its `FieldDecl`). */
final class FieldSym private[typecheck] (val name: String, val owner: ClassSym, val decl: Node, val isClassParam: Boolean)
    extends VarSym {
  def pos: Pos = decl.pos
  def qualifiedName: String = s"${owner.qualifiedName}.$name"
  def kind: String = if (isClassParam) "class parameter" else "field"
  private[typecheck] var t: Type = Type.Error
  def tpe: Type = t
  def isFinal: Boolean = decl match {
    case a: Annotated => Annotations.has(a.annotations, "Final")
    case _ => false
  }
  /** The initialiser of a body field. */
  def init: Option[PureExp] = decl match {
    case f: FieldDecl => f.init
    case _ => None
  }
}

/** Where a local variable comes from. */
sealed abstract class LocalKind(val label: String) extends Product with Serializable
object LocalKind {
  case object MethodParam extends LocalKind("parameter")
  case object FunctionParam extends LocalKind("parameter")
  case object AnonParam extends LocalKind("parameter")
  case object Variable extends LocalKind("local variable")
  case object LetVar extends LocalKind("let variable")
  case object PatternVar extends LocalKind("pattern variable")
  case object ForeachValue extends LocalKind("loop variable")
  case object ForeachIndex extends LocalKind("loop index")
}

/**
 * A local variable. `decl` is its declaring node: the `Param`, `VarDeclStmt`, `LetBinding`,
 * binding `VarPattern`, or `ForeachStmt` (value and index variables).
 */
final class LocalSym private[typecheck] (val name: String, val localKind: LocalKind, val decl: Node, val pos: Pos)
    extends VarSym {
  def qualifiedName: String = name
  def kind: String = localKind.label
  private[typecheck] var t: Type = Type.Error
  def tpe: Type = t
  def isFinal: Boolean = decl match {
    case a: Annotated => Annotations.has(a.annotations, "Final")
    case _ => false
  }
}
