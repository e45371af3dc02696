package cogs.absc.typecheck

import java.util.IdentityHashMap

import cogs.absc.ast._

/** Where code being checked lives. */
private[typecheck] sealed trait Where
private[typecheck] object Where {
  final case class InFunction(f: FunctionSym) extends Where
  final case class InMethod(m: MethodSym) extends Where
  final case class InInit(c: ClassSym) extends Where
  final case class InRecover(c: ClassSym) extends Where
  final case class InFieldInit(c: ClassSym) extends Where
  final case class InMain(m: ModuleSym) extends Where
}

/**
 * What is in scope while checking a piece of code. Immutable: a statement that declares a
 * variable returns the context for the statements after it.
 */
private[typecheck] final case class Ctx(
    module: ModuleSym,
    where: Where,
    cls: Option[ClassSym] = None,
    tparams: Map[String, TypeParamSym] = Map.empty,
    vars: Map[String, LocalSym] = Map.empty,
    funParams: Map[String, FunParamSym] = Map.empty,
    partial: Option[FunctionSym] = None,
    /** In an init block, a recovery block or a finally block: "an init block", ... */
    restricted: Option[String] = None,
    /** In a field initialiser: the fields initialised before it. */
    fieldsReady: Option[Set[String]] = None,
    /** Only the last statement of a method body may return. */
    returnAllowed: Boolean = false) {

  def isFunction: Boolean = where.isInstanceOf[Where.InFunction]

  def method: Option[MethodSym] = where match {
    case Where.InMethod(m) => Some(m)
    case _ => None
  }

  def withVar(l: LocalSym): Ctx = copy(vars = vars.updated(l.name, l))
}

/** The tables the checker fills, keyed by node identity (see the AST's conventions). */
private[typecheck] final class Tables {
  val types = new IdentityHashMap[Node, Type]
  val refs = new IdentityHashMap[Node, Symbol]
  val typeArgs = new IdentityHashMap[Node, List[Type]]
  val foreachVars = new IdentityHashMap[ForeachStmt, (LocalSym, Option[LocalSym])]
  val maySuspend = new IdentityHashMap[Node, java.lang.Boolean]
  val methodSuspends = new IdentityHashMap[MethodSym, java.lang.Boolean]
  /** Statements and synchronous calls that must be compiled as continuations (see EffectPhase). */
  val needsContinuation = new IdentityHashMap[Node, java.lang.Boolean]
  val methodNeedsContinuation = new IdentityHashMap[MethodSym, java.lang.Boolean]
  /** Synchronous calls on `this` that run as a plain Scala call, and their callees (see EffectPhase). */
  val directCalls = new IdentityHashMap[SyncCall, java.lang.Boolean]
  val directCallees = new IdentityHashMap[MethodSym, java.lang.Boolean]
  /** Synchronous calls on `this` that call the callee's frame form `m$body`, and their callees (see EffectPhase). */
  val frameCalls = new IdentityHashMap[SyncCall, java.lang.Boolean]
  val frameCallees = new IdentityHashMap[MethodSym, java.lang.Boolean]
  /** User-defined schedulers: of classes, and of `new` expressions whose statement names one (SchedulerAnnotations). */
  val classSchedulers = new IdentityHashMap[ClassSym, SchedulerSpec]
  val newSchedulers = new IdentityHashMap[NewExp, SchedulerSpec]
  /** Timed ABS: `[Cost: e]` of statements, `[Deadline: d]` of asynchronous calls (TimedAnnotations). */
  val costs = new IdentityHashMap[Stmt, PureExp]
  val deadlines = new IdentityHashMap[AsyncCall, PureExp]
  /** `[DC: dc] new C(..)`: the deployment component of the new COG. */
  val newDCs = new IdentityHashMap[NewExp, PureExp]
  /** `[DataSize: s] o!m(..)`: the size and the call, by statement. */
  val dataSizes = new IdentityHashMap[Stmt, (PureExp, AsyncCall)]
  /** Statements annotated `[HTTPName: name]`, with the name's expression (HttpAnnotations). */
  val httpNames = new IdentityHashMap[Stmt, PureExp]
}
