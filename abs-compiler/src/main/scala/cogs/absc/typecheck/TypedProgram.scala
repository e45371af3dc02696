package cogs.absc.typecheck

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic

/**
 * A checked ABS program: the contract between the type checker and the later phases
 * (lowering, Scala emission).
 *
 * It holds the input ASTs unchanged, the symbols of every declaration (organised by
 * module), and, per AST node (by identity, never by structural equality):
 *
 *  - '''types''': the type of every expression node that belongs to checked code
 *    (function bodies, field initialisers, init/recovery blocks, methods, main blocks,
 *    anonymous functions), of every pattern (the type of the values it matches), and of
 *    every written type (`TypeRef`, with synonyms expanded) — see [[typeOf]];
 *  - '''resolution''': what every name denotes, with its fully qualified name
 *    (`Symbol.qualifiedName`) — see [[variableOf]], [[functionOf]], [[constructorOf]],
 *    [[classOf]], [[methodOf]], [[interfaceOf]], [[symbolOf]];
 *  - '''type arguments''' inferred at every use of a parametric function or
 *    constructor — see [[typeArgs]];
 *  - '''suspension''': whether each method, block and statement may reach a scheduling
 *    point — see [[maySuspend]].
 *
 * Every type here is fully resolved: there are no inference variables; a type argument
 * nothing constrains is [[Type.Bottom]] (`Nil` alone is a `List<Bottom>`). No `Type.Error`
 * either, since a program with errors yields no `TypedProgram`.
 *
 * What is ''not'' typed: expressions inside annotations and inside `builtin(..)`
 * arguments, and the method definitions as written inside traits (each class that uses a
 * trait gets its own checked copy, reachable through `ClassSym.methods`; see below).
 *
 * Notes for the emitter:
 *
 *  - Methods of a class: iterate `ClassSym.methods` (not `ClassDecl.methods`): it also
 *    holds the methods that traits add, each a `MethodSym` whose `decl` is a fresh copy
 *    of the trait's `MethodDecl`, typed for this class.
 *  - A `VarUse` may denote a local variable or a field (`variableOf` tells which); an
 *    assignment `x = e` to a field is written like one to a local.
 *  - A `VarPattern` either binds a new variable or compares with an existing one (a
 *    local or a field in scope, or an earlier variable of the same pattern, as in
 *    `Pair(x, x)`): see [[patternVar]].
 *  - A `FnApp` inside a partial function's body may call one of its function parameters
 *    ([[funParamOf]]), or the partial function itself recursively (`map(rest)` inside
 *    `map`: same function parameters; its type arguments are the function's own).
 *  - Partial functions: `FunctionSym.funParams` carry the inferred function types, so a
 *    partial function can be emitted as a generic higher-order function; a
 *    `PartialFnApp`'s function arguments are `FunName` (a function, with its own
 *    [[typeArgs]], or an enclosing function parameter) or `AnonFun` (whose body is typed
 *    in the caller's scope; `typeOf(f: FunArg)` gives its function type).
 *  - Numeric operators: the type of a `Binary` is its result type; `Int / Int` is a
 *    `Rat`, any `Rat` operand makes the result `Rat`, `Float` only combines with `Float`.
 *  - `this` and `new C(..)` have type [[Type.Obj]] (an object of class `C`); every other
 *    object-typed expression has an interface type.
 */
final class TypedProgram private[typecheck] (
    /** Every module: the prelude's (`ABS.StdLib` first, then `ABS.Scheduler`), then the modules of `units` in order. */
    val modules: List[ModuleSym],
    /** The compilation units that were checked (the prelude's is [[Prelude.unit]]). */
    val units: List[CompilationUnit],
    /** The built-in types, to build and recognise `Int`, `Fut<T>`, ... */
    val builtins: Builtins,
    tables: Tables,
    /** Warnings of the check (a `TypedProgram` has no errors). */
    val warnings: List[Diagnostic]) {

  // ---------------------------------------------------------------------------------
  // Modules and declarations

  /** The name under which a statement registers its object for the Model API (`[HTTPName: name]`). */
  def httpNameOf(s: Stmt): Option[PureExp] = Option(tables.httpNames.get(s))

  /** Whether some statement registers an object for the Model API: then every class is compiled for it. */
  def usesModelApi: Boolean = !tables.httpNames.isEmpty

  /** The user-defined scheduler of a class (`[Scheduler: ..] class C ..`), if it has one. */
  def schedulerOf(c: ClassSym): Option[SchedulerSpec] = Option(tables.classSchedulers.get(c))

  /**
   * The user-defined scheduler of the COG that `new C(..)` creates: the one its statement names,
   * else its class's. None for `new local` (the object joins the creator's COG).
   */
  def schedulerAt(n: NewExp): Option[SchedulerSpec] =
    if (n.local) None
    else Option(tables.newSchedulers.get(n)).orElse(symbolOf(n).collect { case c: ClassSym => c }.flatMap(schedulerOf))

  /** `[Cost: e]` of a statement, if it has one (TimedAnnotations). */
  def costOf(s: Stmt): Option[PureExp] = Option(tables.costs.get(s))

  /** `[Deadline: d]` of an asynchronous call's statement, if it has one. */
  def deadlineOf(c: AsyncCall): Option[PureExp] = Option(tables.deadlines.get(c))

  /** `[DataSize: s]` of a statement that makes an asynchronous call, with that call. */
  def dataSizeOf(s: Stmt): Option[(PureExp, AsyncCall)] = Option(tables.dataSizes.get(s))

  /** `[DC: dc]` of the statement of a `new` (not `new local`), if it has one. */
  def dcAt(n: NewExp): Option[PureExp] = Option(tables.newDCs.get(n))

  /** The standard library module `ABS.StdLib`. */
  def prelude: ModuleSym = modules.head

  /** The modules of the checked units, in order. */
  def userModules: List[ModuleSym] = modules.filterNot(_.isPrelude)

  def module(name: String): Option[ModuleSym] = modules.find(_.name == name)

  /** Every declaration of the program (prelude included), module by module. */
  def declarations: List[DeclSym] = modules.flatMap(_.declarations)

  def classes: List[ClassSym] = modules.flatMap(_.classes)
  def interfaces: List[InterfaceSym] = modules.flatMap(_.interfaces)
  def functions: List[FunctionSym] = modules.flatMap(_.functions)
  def dataTypes: List[DataTypeSym] = modules.flatMap(_.dataTypes)

  /** The modules that have a main block (a runnable program has exactly one, conventionally the last). */
  def mainModules: List[ModuleSym] = modules.filter(_.main.isDefined)

  // ---------------------------------------------------------------------------------
  // (a) Types

  /** The type of an expression (pure or with effects). For `o!m(..)` it is `Fut<T>`, for `await o!m(..)` and `o.m(..)` it is `T`. */
  def typeOf(e: Exp): Type = get(tables.types, e, "type of expression")

  /** The type a written type denotes, synonyms expanded. */
  def typeOf(t: TypeRef): Type = get(tables.types, t, "type of type reference")

  /** The type of the values a pattern (or sub-pattern) matches. */
  def typeOf(p: Pattern): Type = get(tables.types, p, "type of pattern")

  /** The function type of a function argument of a partial function application. */
  def typeOf(f: FunArg): Type.Fun = get(tables.types, f, "type of function argument") match {
    case t: Type.Fun => t
    case other => throw new NoSuchElementException(s"absc: function argument typed $other")
  }

  /** The recorded type of any node, if it has one. */
  def typeOfNode(n: Node): Option[Type] = Option(tables.types.get(n))

  // ---------------------------------------------------------------------------------
  // (b) Resolution

  /** What any resolved node denotes, if anything (see the specific accessors). */
  def symbolOf(n: Node): Option[Symbol] = Option(tables.refs.get(n))

  /** The local variable or field a `VarUse` (also an assignment target or a claim guard `x?`) or `FieldUse` denotes. */
  def variableOf(v: LValue): VarSym = get(tables.refs, v, "variable") match {
    case s: VarSym => s
    case other => throw new NoSuchElementException(s"absc: $v denotes $other")
  }

  /**
   * The function a call names: `FnApp`, `NAryFnApp`, `PartialFnApp` or a `FunName`
   * function argument. Throws for a call of a function parameter (see [[funParamOf]]).
   */
  def functionOf(n: Node): FunctionSym = get(tables.refs, n, "function") match {
    case f: FunctionSym => f
    case other => throw new NoSuchElementException(s"absc: $n denotes $other, not a function")
  }

  /** If a `FnApp` (or `FunName`) inside a partial function's body names one of its function parameters, that parameter. */
  def funParamOf(n: Node): Option[FunParamSym] = symbolOf(n).collect { case p: FunParamSym => p }

  def constructorOf(e: ConstructorApp): ConstructorSym = ctor(e)
  def constructorOf(p: ConstructorPattern): ConstructorSym = ctor(p)

  private def ctor(n: Node): ConstructorSym = get(tables.refs, n, "constructor") match {
    case c: ConstructorSym => c
    case other => throw new NoSuchElementException(s"absc: $n denotes $other")
  }

  def classOf(n: NewExp): ClassSym = get(tables.refs, n, "class") match {
    case c: ClassSym => c
    case other => throw new NoSuchElementException(s"absc: $n denotes $other")
  }

  /**
   * The method a call invokes: for a call through an interface, the interface's method
   * (`owner` is the declaring interface); for a call on `this`, the class's own method.
   */
  def methodOf(c: AsyncCall): MethodSym = meth(c)
  def methodOf(c: SyncCall): MethodSym = meth(c)
  def methodOf(a: AwaitExp): MethodSym = meth(a)

  private def meth(n: Node): MethodSym = get(tables.refs, n, "method") match {
    case m: MethodSym => m
    case other => throw new NoSuchElementException(s"absc: $n denotes $other")
  }

  /** The interface of `e implements I`, `e as I`, or of a name in an `extends`/`implements` list. */
  def interfaceOf(n: Node): InterfaceSym = get(tables.refs, n, "interface") match {
    case i: InterfaceSym => i
    case other => throw new NoSuchElementException(s"absc: $n denotes $other")
  }

  /**
   * The variable a declaration introduces: a `Param` (of a method, function or anonymous
   * function: a `LocalSym`; of a class: a `FieldSym`), a `FieldDecl`, a `VarDeclStmt`,
   * or a `LetBinding`.
   */
  def declared(n: Node): VarSym = get(tables.refs, n, "declared variable") match {
    case v: VarSym => v
    case other => throw new NoSuchElementException(s"absc: $n declares $other")
  }

  /** The value variable and optional index variable of a `foreach`. */
  def foreachVars(f: ForeachStmt): (LocalSym, Option[LocalSym]) = get(tables.foreachVars, f, "foreach variables")

  /** Whether a variable pattern binds a new variable or compares with an existing one. */
  def patternVar(p: VarPattern): PatternVarRole = get(tables.refs, p, "pattern variable") match {
    case l: LocalSym if l.decl eq p => PatternVarRole.Binds(l)
    case v: VarSym => PatternVarRole.Compares(v)
    case other => throw new NoSuchElementException(s"absc: $p denotes $other")
  }

  // ---------------------------------------------------------------------------------
  // (c) Type arguments

  /**
   * The type arguments of a use of a parametric function or constructor, in the order
   * of its declaration's type parameters (`FunctionSym.typeParams`,
   * `DataTypeSym.typeParams`): for `FnApp`, `NAryFnApp`, `PartialFnApp`, a `FunName`
   * function argument, `ConstructorApp` and `ConstructorPattern`. Empty for
   * non-parametric ones.
   */
  def typeArgs(n: Node): List[Type] = Option(tables.typeArgs.get(n)).getOrElse(Nil)

  // ---------------------------------------------------------------------------------
  // (d) Scheduling points

  /**
   * May running this method reach a scheduling point (`await`, `suspend`, `.get`, or a
   * synchronous call that may)? If not, it can be compiled as a plain Scala method.
   * Least fixpoint over synchronous calls on `this`; a synchronous call through an
   * interface counts as suspending.
   */
  def maySuspend(m: MethodSym): Boolean =
    Option(tables.methodSuspends.get(m)).exists(_.booleanValue)

  /**
   * May this statement (any statement of a method, init block, recovery branch or main
   * block, including those blocks themselves) reach a scheduling point?
   */
  def maySuspend(s: Stmt): Boolean = Option(tables.maySuspend.get(s)).exists(_.booleanValue)

  /** May this synchronous call suspend (the callee may suspend, or it goes through an interface)? */
  def maySuspend(c: SyncCall): Boolean = Option(tables.maySuspend.get(c)).exists(_.booleanValue)

  /**
   * Must this method be compiled as a continuation (a `Proc` built step by step)? Yes if it may
   * suspend, and also if it calls (directly or through nested statements) a method of its own
   * object on a cycle of synchronous calls on `this`: the recursion then lives on the process's
   * heap stack, not on the JVM stack.
   */
  def needsContinuation(m: MethodSym): Boolean =
    Option(tables.methodNeedsContinuation.get(m)).exists(_.booleanValue)

  /** Must this statement (of any body) be compiled as a continuation? See [[needsContinuation(m:*]]. */
  def needsContinuation(s: Stmt): Boolean = Option(tables.needsContinuation.get(s)).exists(_.booleanValue)

  /** Must this synchronous call be compiled as a continuation (the callee may suspend, or it recurses on `this`)? */
  def needsContinuation(c: SyncCall): Boolean = Option(tables.needsContinuation.get(c)).exists(_.booleanValue)

  /**
   * Is this synchronous call a plain Scala call of the callee's value-returning form (`m$now`)?
   * Yes for a call on `this` of a method that needs no continuation (it cannot suspend and is on
   * no cycle of calls on `this`); never for a call through an interface (see EffectPhase).
   */
  def isDirect(c: SyncCall): Boolean = Option(tables.directCalls.get(c)).exists(_.booleanValue)

  /** Is this method the callee of some direct call (see [[isDirect(c:*]]), so it needs its value-returning form? */
  def hasDirectForm(m: MethodSym): Boolean = Option(tables.directCallees.get(m)).exists(_.booleanValue)

  /**
   * Does this synchronous call on `this` call the callee's frame form (`m$body`, its body without
   * the handler that records a failure on the object), leaving the failure to the caller's
   * handler? See EffectPhase.
   */
  def isFrameCall(c: SyncCall): Boolean = Option(tables.frameCalls.get(c)).exists(_.booleanValue)

  /** Is this method the callee of some frame call (see [[isFrameCall]]), so it needs its frame form? */
  def hasFrameForm(m: MethodSym): Boolean = Option(tables.frameCallees.get(m)).exists(_.booleanValue)

  /** The init block of a class may suspend (only through synchronous calls of [Atomic] interface methods). */
  def initMaySuspend(c: ClassSym): Boolean = c.init.exists(maySuspend(_: Stmt))

  /** The main block of a module may suspend. */
  def mainMaySuspend(m: ModuleSym): Boolean = m.main.exists(maySuspend(_: Stmt))

  private def get[K, V](m: java.util.IdentityHashMap[K, V], k: K, what: String): V = {
    val v = m.get(k)
    if (v == null) throw new NoSuchElementException(s"absc: no $what recorded for $k")
    v
  }
}

/** What a variable pattern does. */
sealed trait PatternVarRole extends Product with Serializable
object PatternVarRole {
  /** Binds a new variable to the matched value. */
  final case class Binds(local: LocalSym) extends PatternVarRole
  /** Matches only a value equal to that of an existing variable (a local or field in scope, or an earlier one of the pattern). */
  final case class Compares(existing: VarSym) extends PatternVarRole
}
