package cogs.absc.ast

/*
 * The abstract syntax of ABS, as produced by cogs.absc.parse.Parser and consumed by the
 * later phases of absc (name resolution, type checking, lowering, emission).
 *
 * Conventions that every phase can rely on:
 *
 *  - The tree is immutable and fully built: no nulls, no parse-error placeholders. A
 *    source with syntax errors yields diagnostics, never a partial tree.
 *
 *  - Every node carries a source position `pos`, kept in a second, implicit parameter
 *    list. Equality, hashCode and pattern matching therefore see structure only:
 *    `Binary(Add, IntLit(1), IntLit(2))` built at two places in a file is one value. To
 *    attach information to one particular occurrence (a type per expression node, say)
 *    key a java.util.IdentityHashMap by the node, not a HashMap. When rebuilding a node
 *    with `copy`, pass its position explicitly: `n.copy(args = as)(n.pos)`.
 *
 *  - Where `pos` points: at the first token of the construct (after its annotations),
 *    except for
 *      - named declarations (data types, constructors, type synonyms, exceptions,
 *        functions, interfaces, classes, traits, methods, fields, parameters, local
 *        variables, let bindings): at the declared name, where "duplicate definition"
 *        or "unused" messages belong;
 *      - infix forms: at the operator (`a + b` at `+`, `e implements I` at
 *        `implements`, `e as I` at `as`), at the method name for calls (`o!m(..)`,
 *        `o.m(..)` at `m`), and at `get` for `f.get`.
 *
 *  - Side effects are in the types: `PureExp` is what may appear in functions, guards,
 *    conditions and arguments; `EffExp` (new, calls, get, await) only appears whole, as
 *    the top of a statement's expression. Mixing them is a syntax error, so no phase has
 *    to check it again.
 *
 *  - Names are kept as written: `QName(None, "List")` or `QName(Some("ABS.StdLib"),
 *    "List")`. Deciding what a name denotes (a local or a field for `VarUse`, a type
 *    parameter or a declared type for `TypeRef`, ...) is name resolution's job.
 *
 *  - Timed ABS (duration statements and guards) and deployment (movecogto, [DC: ..]
 *    annotations) are represented so that later phases can reject them with a precise
 *    "not supported yet" message instead of a syntax error.
 */

/** A position in a source file: 1-based line and 1-based column (a tab counts as one column). */
final case class Pos(file: String, line: Int, col: Int) {
  override def toString: String = s"$file:$line:$col"
}

object Pos {
  /** For nodes built by tools or tests rather than read from a file. */
  val Unknown: Pos = Pos("<unknown>", 0, 0)
}

/** A name as written, possibly qualified by a (possibly dotted) module name: `ABS.StdLib.List`. */
final case class QName(module: Option[String], name: String) {
  def isQualified: Boolean = module.isDefined
  override def toString: String = module.fold(name)(m => s"$m.$name")
}

object QName {
  def apply(name: String): QName = QName(None, name)

  /** Splits `A.B.c` at its last dot: module `A.B`, name `c`. */
  def parse(text: String): QName = text.lastIndexOf('.') match {
    case -1 => QName(None, text)
    case i => QName(Some(text.substring(0, i)), text.substring(i + 1))
  }
}

/** Every tree node has a position. */
sealed trait Node extends Product with Serializable {
  def pos: Pos
}

/** Nodes that annotations (`[Atomic]`, `[Cost: 10]`, ...) can be attached to. */
sealed trait Annotated {
  def annotations: List[Annotation]
}

/**
 * An annotation fragment: `[Near]` is `Annotation(None, ConstructorApp(Near))`,
 * `[Cost: 10]` is `Annotation(Some(Cost), IntLit(10))`. `[A: 1, B]` yields two
 * fragments, exactly as `[A: 1] [B]` does. Which tags mean something is decided by the
 * later phases; unknown ones are kept, never rejected here.
 */
final case class Annotation(tag: Option[QName], value: PureExp)(implicit val pos: Pos) extends Node

/** A name in an import, export, extends or implements list. */
final case class NameRef(name: QName)(implicit val pos: Pos) extends Node

/**
 * A use of a type: `Int`, `List<Pair<K, V>>`, `ABS.StdLib.Map<K, V>`, or a type
 * parameter `A`. Its annotations are those written on a type argument (`Fut<[Far] I>`) or
 * after `def` (`def [Nullable] T f()`). Annotations before a declaration belong to the
 * declaration, so a location type such as `[Far] I m()` or `[Near] I x = ..` is found in
 * the method's, parameter's or variable's annotations.
 */
final case class TypeRef(name: QName, args: List[TypeRef] = Nil, annotations: List[Annotation] = Nil)(
    implicit val pos: Pos) extends Node with Annotated

/** A type parameter of a data type, type synonym or function: the `A` of `List<A>`. */
final case class TypeParam(name: String)(implicit val pos: Pos) extends Node

// =====================================================================================
// Compilation units and modules

/**
 * One source file: its modules in source order, and its product line declarations (deltas,
 * product line, products, feature model; see Spl.scala), which only the flattening phase reads.
 */
final case class CompilationUnit(file: String, modules: List[ModuleDecl], spl: SplDecls = SplDecls.empty)

/**
 * `module M; exports.. imports.. declarations.. { main block }`. Exports and imports may
 * be interleaved in the source; each list keeps its source order.
 */
final case class ModuleDecl(
    name: String,
    exports: List[Export],
    imports: List[Import],
    decls: List[Decl],
    main: Option[Block])(implicit val pos: Pos) extends Node

/** What an import or export clause names: `*`, or a list of names. */
sealed trait NameSelection extends Product with Serializable
case object AllNames extends NameSelection
final case class SomeNames(names: List[NameRef]) extends NameSelection

/** `export *;`, `export * from M;`, `export f, T;`, `export T from M;` */
final case class Export(names: NameSelection, from: Option[String])(implicit val pos: Pos) extends Node

/**
 * `import * from M;`, `import f, T from M;`, `import M.T;` (a qualified name needs no
 * `from`). The parser guarantees that `AllNames` comes with a `from`, and that an
 * unqualified name does too.
 */
final case class Import(names: NameSelection, from: Option[String])(implicit val pos: Pos) extends Node

// =====================================================================================
// Declarations

sealed trait Decl extends Node with Annotated {
  def name: String
}

/** `data List<A> = Nil | Cons(A head, List<A> tail);` A data type without constructors has none. */
final case class DataDecl(
    name: String,
    typeParams: List[TypeParam],
    constructors: List[ConstructorDecl],
    annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Decl

/** `Cons(A head, List<A> tail)`, or `Nil` with no arguments. */
final case class ConstructorDecl(name: String, args: List[ConstructorArg])(implicit val pos: Pos) extends Node

/** A constructor argument: its type and, if named, the selector (accessor) function it defines. */
final case class ConstructorArg(tpe: TypeRef, selector: Option[String])(implicit val pos: Pos) extends Node

/** `type Name = String;` (type parameters parse, though the manual does not support them yet). */
final case class TypeSynDecl(
    name: String,
    typeParams: List[TypeParam],
    rhs: TypeRef,
    annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Decl

/** `exception Overdrawn(Int amount);` an extra constructor of `ABS.StdLib.Exception`. */
final case class ExceptionDecl(
    name: String,
    args: List[ConstructorArg],
    annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Decl

/**
 * `def T f<A>(A x) = e;`. A partial (second-order) function `def List<B> map<A, B>(f)(List<A> l)`
 * has the names of its function parameters in `funParams`; an ordinary function has none.
 */
final case class FunctionDecl(
    name: String,
    typeParams: List[TypeParam],
    funParams: List[FunParam],
    params: List[Param],
    resultType: TypeRef,
    body: FunctionBody,
    annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Decl {
  def isPartial: Boolean = funParams.nonEmpty
}

/** A function parameter of a partial function definition: the `f` of `map(f)(l)`. */
final case class FunParam(name: String)(implicit val pos: Pos) extends Node

sealed trait FunctionBody extends Node

/** A body given by a pure expression. */
final case class ExpBody(exp: PureExp)(implicit val pos: Pos) extends FunctionBody

/** `builtin` or `builtin(args)`: implemented by the backend. */
final case class BuiltinBody(args: List[PureExp])(implicit val pos: Pos) extends FunctionBody

/** `interface I extends J, K { sigs }` */
final case class InterfaceDecl(
    name: String,
    extendsList: List[NameRef],
    methods: List[MethodSig],
    annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Decl

/** `T m(T1 x1, T2 x2)`, in an interface or as the head of a method definition. */
final case class MethodSig(
    name: String,
    resultType: TypeRef,
    params: List[Param],
    annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Node with Annotated

/** A typed parameter of a class, method, function or anonymous function. */
final case class Param(name: String, tpe: TypeRef, annotations: List[Annotation] = Nil)(implicit val pos: Pos)
    extends Node with Annotated

/**
 * `class C(T p) implements I { fields; { init } recover { .. } uses T; methods }`.
 * A class without a parameter list has `params == Nil` (as does `class C()`).
 */
final case class ClassDecl(
    name: String,
    params: List[Param],
    implementsList: List[NameRef],
    fields: List[FieldDecl],
    init: Option[Block],
    recover: List[SwitchBranch],
    uses: List[TraitExpr],
    methods: List[MethodDecl],
    annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Decl

/** `T f;` or `T f = e;` in a class body; initialisers are pure. */
final case class FieldDecl(name: String, tpe: TypeRef, init: Option[PureExp], annotations: List[Annotation] = Nil)(
    implicit val pos: Pos) extends Node with Annotated

/** A method definition; its position and annotations are those of its signature. */
final case class MethodDecl(sig: MethodSig, body: Block)(implicit val pos: Pos) extends Node with Annotated {
  def name: String = sig.name
  def annotations: List[Annotation] = sig.annotations
}

/** `trait T = { methods } adds T2 removes { sigs }` */
final case class TraitDecl(name: String, expr: TraitExpr, annotations: List[Annotation] = Nil)(implicit val pos: Pos)
    extends Decl

/** A method set followed by operations applied left to right. */
final case class TraitExpr(base: MethodSet, ops: List[TraitOp])(implicit val pos: Pos) extends Node

sealed trait MethodSet extends Node
/** The methods of a named trait. */
final case class TraitRef(name: String)(implicit val pos: Pos) extends MethodSet
/** Methods written in place (`{ .. }`, or a single method definition). */
final case class MethodList(methods: List[MethodDecl])(implicit val pos: Pos) extends MethodSet

sealed trait TraitOp extends Node
final case class TraitAdds(set: MethodSet)(implicit val pos: Pos) extends TraitOp
final case class TraitModifies(set: MethodSet)(implicit val pos: Pos) extends TraitOp
final case class TraitRemoves(sigs: List[MethodSig])(implicit val pos: Pos) extends TraitOp

// =====================================================================================
// Statements

sealed trait Stmt extends Node with Annotated

/** `{ stmts }`; also the main block, method bodies and the init block. */
final case class Block(stmts: List[Stmt], annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

final case class SkipStmt(annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

final case class SuspendStmt(annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

/** `T x;` or `T x = e;` (the initialiser may have effects). Positioned at the name. */
final case class VarDeclStmt(name: String, tpe: TypeRef, init: Option[Exp], annotations: List[Annotation] = Nil)(
    implicit val pos: Pos) extends Stmt

/** `x = e;` or `this.f = e;` */
final case class AssignStmt(target: LValue, value: Exp, annotations: List[Annotation] = Nil)(implicit val pos: Pos)
    extends Stmt

/** An expression evaluated for its effect: `o!m();`, `println(s);`, `await o!m();` */
final case class ExpStmt(exp: Exp, annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

final case class AssertStmt(cond: PureExp, annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

final case class AwaitStmt(guard: Guard, annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

final case class ReturnStmt(exp: Exp, annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

final case class ThrowStmt(exp: PureExp, annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

/** `die e;` terminates the object, with `e` as the reason. */
final case class DieStmt(exp: PureExp, annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

final case class IfStmt(cond: PureExp, thenStmt: Stmt, elseStmt: Option[Stmt], annotations: List[Annotation] = Nil)(
    implicit val pos: Pos) extends Stmt

final case class WhileStmt(cond: PureExp, body: Stmt, annotations: List[Annotation] = Nil)(implicit val pos: Pos)
    extends Stmt

/** `foreach (v in l) s` or, with an index variable, `foreach (v, i in l) s`. */
final case class ForeachStmt(
    valueVar: String,
    indexVar: Option[String],
    list: PureExp,
    body: Stmt,
    annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

/** `switch (e) { p => s ... }`, and the older `case e { p => s ... }`. */
final case class SwitchStmt(scrutinee: PureExp, branches: List[SwitchBranch], annotations: List[Annotation] = Nil)(
    implicit val pos: Pos) extends Stmt

/** `p => s` in a switch statement, a catch clause or a recovery block. */
final case class SwitchBranch(pattern: Pattern, body: Stmt)(implicit val pos: Pos) extends Node

/** `try s catch { p => s ... } finally s`; a single unbraced catch branch is a one-element list. */
final case class TryCatchStmt(
    body: Stmt,
    catches: List[SwitchBranch],
    finallyStmt: Option[Stmt],
    annotations: List[Annotation] = Nil)(implicit val pos: Pos) extends Stmt

/** Timed ABS: `duration(min, max);` blocks the COG for a span of simulated time. */
final case class DurationStmt(min: PureExp, max: Option[PureExp], annotations: List[Annotation] = Nil)(
    implicit val pos: Pos) extends Stmt

/** Deployment: `movecogto dc;` moves the current COG to another deployment component. */
final case class MoveCogToStmt(target: PureExp, annotations: List[Annotation] = Nil)(implicit val pos: Pos)
    extends Stmt

// -------------------------------------------------------------------------------------
// Await guards

sealed trait Guard extends Node

/** `f?` or `this.f?`: the future is resolved. */
final case class ClaimGuard(future: LValue)(implicit val pos: Pos) extends Guard

/** A Boolean condition over the object state. */
final case class ExpGuard(cond: PureExp)(implicit val pos: Pos) extends Guard

/** `g1 & g2`, positioned at `&`. */
final case class AndGuard(left: Guard, right: Guard)(implicit val pos: Pos) extends Guard

/** Timed ABS: `duration(min, max)`. */
final case class DurationGuard(min: PureExp, max: Option[PureExp])(implicit val pos: Pos) extends Guard

// =====================================================================================
// Expressions

sealed trait Exp extends Node

/** Side-effect-free expressions of the functional layer (plus `this`, fields and `destiny`). */
sealed trait PureExp extends Exp

/** Expressions with effects; they only appear at the top of a statement's expression. */
sealed trait EffExp extends Exp

/** What can be assigned to or awaited on: a local variable or field `x`, or a field `this.f`. */
sealed trait LValue extends PureExp {
  def name: String
}

sealed trait Literal extends PureExp

final case class IntLit(value: BigInt)(implicit val pos: Pos) extends Literal

final case class FloatLit(value: Double)(implicit val pos: Pos) extends Literal

/** A string literal, escapes already decoded. */
final case class StringLit(value: String)(implicit val pos: Pos) extends Literal

/**
 * `` `text $e1$ text $e2$ text` ``: `parts` are the decoded text pieces around the holes,
 * so `parts.length == holes.length + 1` (pieces may be empty).
 */
final case class TemplateString(parts: List[String], holes: List[PureExp])(implicit val pos: Pos) extends PureExp {
  require(parts.length == holes.length + 1, "a template string has one more text part than holes")
}

final case class NullLit()(implicit val pos: Pos) extends PureExp

final case class ThisExp()(implicit val pos: Pos) extends PureExp

/** `destiny`: the future of the running process. */
final case class DestinyExp()(implicit val pos: Pos) extends PureExp

/** A bare lower-case name: a local variable, parameter or field (resolution decides). */
final case class VarUse(name: String)(implicit val pos: Pos) extends LValue

/** `this.f`: certainly a field. */
final case class FieldUse(name: String)(implicit val pos: Pos) extends LValue

/** `f(args)` */
final case class FnApp(fn: QName, args: List[PureExp])(implicit val pos: Pos) extends PureExp

/** `map((Int x) => x + 1)(l)`: a partial function applied to function arguments, then to values. */
final case class PartialFnApp(fn: QName, funArgs: List[FunArg], args: List[PureExp])(implicit val pos: Pos)
    extends PureExp

/** A function argument of a partial function application. */
sealed trait FunArg extends Node
/** A named function: `map(toString)(l)`. */
final case class FunName(name: QName)(implicit val pos: Pos) extends FunArg
/** An anonymous function: `(Int x) => x * 2`. */
final case class AnonFun(params: List[Param], body: PureExp)(implicit val pos: Pos) extends FunArg

/** `list[1, 2, 3]`, `set[..]`, `map[..]`: a call of a one-argument function with the list of its arguments. */
final case class NAryFnApp(fn: QName, args: List[PureExp])(implicit val pos: Pos) extends PureExp

/** `Cons(1, Nil)`, `Nil` (also written `Nil()`), `True`. */
final case class ConstructorApp(constructor: QName, args: List[PureExp])(implicit val pos: Pos) extends PureExp

final case class Unary(op: UnaryOp, operand: PureExp)(implicit val pos: Pos) extends PureExp

/** Positioned at the operator. */
final case class Binary(op: BinaryOp, left: PureExp, right: PureExp)(implicit val pos: Pos) extends PureExp

/** `let T x = e1, T y = e2 in body`: bindings are sequential, later ones see earlier ones. */
final case class LetExp(bindings: List[LetBinding], body: PureExp)(implicit val pos: Pos) extends PureExp

final case class LetBinding(name: String, tpe: TypeRef, value: PureExp)(implicit val pos: Pos) extends Node

/** `if c then a else b` and `when c then a else b`. */
final case class IfExp(cond: PureExp, thenExp: PureExp, elseExp: PureExp)(implicit val pos: Pos) extends PureExp

/** `case e { p1 => e1 | p2 => e2 }` */
final case class CaseExp(scrutinee: PureExp, branches: List[CaseBranch])(implicit val pos: Pos) extends PureExp

final case class CaseBranch(pattern: Pattern, body: PureExp)(implicit val pos: Pos) extends Node

/** `e implements I`, positioned at `implements`. */
final case class ImplementsExp(exp: PureExp, iface: QName)(implicit val pos: Pos) extends PureExp

/** `e as I` (null if the object does not implement I), positioned at `as`. */
final case class AsExp(exp: PureExp, iface: QName)(implicit val pos: Pos) extends PureExp

/** `new C(args)` (a new COG) or `new local C(args)` (the creator's COG). */
final case class NewExp(cls: QName, args: List[PureExp], local: Boolean)(implicit val pos: Pos) extends EffExp

/** `o!m(args)`, positioned at `m`. */
final case class AsyncCall(target: PureExp, method: String, args: List[PureExp])(implicit val pos: Pos)
    extends EffExp

/** `o.m(args)`, positioned at `m`. */
final case class SyncCall(target: PureExp, method: String, args: List[PureExp])(implicit val pos: Pos)
    extends EffExp

/** `f.get`, positioned at `get`. */
final case class GetExp(future: PureExp)(implicit val pos: Pos) extends EffExp

/** `await o!m(args)`: call, wait for the future without blocking the COG, then get it. */
final case class AwaitExp(call: AsyncCall)(implicit val pos: Pos) extends EffExp

// -------------------------------------------------------------------------------------
// Operators

sealed abstract class UnaryOp(val symbol: String) extends Product with Serializable
object UnaryOp {
  case object Not extends UnaryOp("!")
  case object Neg extends UnaryOp("-")
}

/** Binary operators, with the manual's precedence (higher binds tighter); all are left associative. */
sealed abstract class BinaryOp(val symbol: String, val precedence: Int) extends Product with Serializable
object BinaryOp {
  case object Or extends BinaryOp("||", 1)
  case object And extends BinaryOp("&&", 2)
  case object Eq extends BinaryOp("==", 3)
  case object Ne extends BinaryOp("!=", 3)
  case object Lt extends BinaryOp("<", 4)
  case object Le extends BinaryOp("<=", 4)
  case object Gt extends BinaryOp(">", 4)
  case object Ge extends BinaryOp(">=", 4)
  case object Add extends BinaryOp("+", 5)
  case object Sub extends BinaryOp("-", 5)
  case object Mul extends BinaryOp("*", 6)
  case object Div extends BinaryOp("/", 6)
  case object Mod extends BinaryOp("%", 6)

  val all: List[BinaryOp] = List(Or, And, Eq, Ne, Lt, Le, Gt, Ge, Add, Sub, Mul, Div, Mod)
}

// =====================================================================================
// Patterns

sealed trait Pattern extends Node

/** `_` */
final case class WildcardPattern()(implicit val pos: Pos) extends Pattern

/** `x`: binds x, or, if x is already bound, compares with its value (resolution decides). */
final case class VarPattern(name: String)(implicit val pos: Pos) extends Pattern

/** `5`, `-1`, `2.5`, `"text"` */
final case class LiteralPattern(lit: Literal)(implicit val pos: Pos) extends Pattern

/** `Cons(x, _)`, `Nil` */
final case class ConstructorPattern(constructor: QName, args: List[Pattern])(implicit val pos: Pos) extends Pattern
