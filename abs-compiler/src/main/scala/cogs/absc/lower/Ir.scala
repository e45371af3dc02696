package cogs.absc.lower

/*
 * The lowered program: what the lowering phase produces and the printer renders as Scala.
 *
 * It is plain data, decided entirely by lowering: every name in it is already the Scala name
 * (chosen by [[Naming]], collision-free), every continuation is explicit, and the printer makes
 * no decision but layout. Two levels:
 *
 *  - [[S]] and [[St]]: Scala expressions and statements that run without reaching a scheduling
 *    point (pure ABS expressions, plain statements, loops and matches of plain code);
 *  - [[P]]: a computation of type `Proc[T]`, the lowered form of code that may suspend:
 *    statements run now, then an await, a `get`, a synchronous call or a compound statement,
 *    then its continuation.
 */

/** A Scala type, already named. */
sealed trait T extends Product with Serializable
object T {
  /** `name` or `name[args]` (`name` may be a path: `Bank.Account`, `Fut`). */
  final case class Ref(name: String, args: List[T] = Nil) extends T
  final case class Fun(params: List[T], result: T) extends T
  /** An existential written as `Fut[_]`. */
  final case class Wild(name: String) extends T
}

/** A Scala expression. */
sealed trait S extends Product with Serializable
object S {
  /** A literal or constant, as Scala text (`AbsInt(3)`, `true`, `()`, `null`). */
  final case class Lit(text: String) extends S
  /** A string constant, by its value (kept apart from [[Lit]] so that [[Limits]] can split a long one). */
  final case class Str(value: String) extends S
  /** A name in scope (a local, a function of the current module, a library function or object). */
  final case class Id(name: String) extends S
  /** `qual.name` */
  final case class Sel(qual: S, name: String) extends S
  /** `fun[targs](args)` */
  final case class App(fun: S, targs: List[T], args: List[S]) extends S
  /** `fun[targs]`, with no argument list (`x.isInstanceOf[T]`). */
  final case class TypeApp(fun: S, targs: List[T]) extends S
  final case class Infix(left: S, op: String, right: S) extends S
  final case class Prefix(op: String, operand: S) extends S
  /** `(x: T, ..) => body` */
  final case class Lambda(params: List[(String, Option[T])], body: S) extends S
  /** `{ stats; result }` */
  final case class Block(stats: List[St], result: S) extends S
  final case class If(cond: S, thenp: S, elsep: S) extends S
  /** `scrutinee match { cases }` */
  final case class Match(scrutinee: S, cases: List[Case[S]]) extends S
  /** `(e: T)` */
  final case class Ascribe(e: S, tpe: T) extends S
  final case class New(cls: T, args: List[S]) extends S
  final case class Throw(e: S) extends S
  /** `(try body catch { case binder: Throwable => handler })` */
  final case class Catch(body: S, binder: String, handler: S) extends S
  /** A `Proc[_]`-typed lowered computation used as an expression (a suspending sync call's argument, say). */
  final case class Proc(p: P) extends S

  // Call sites that monitoring or a session protocol may instrument. Lowering makes them; the
  // `instrument` pass ([[Instrument]]) replaces each by plain code (instrumented or not), so no
  // later phase sees one.

  /** `o!m(args)`: `send(target, "f.abs:3:5")(message)`, or `tell` when `oneWay` (nobody can read its future). */
  final case class Send(call: Call, oneWay: Boolean) extends S
  /**
   * `[Deadline: d] o!m(args)`: `AbsTime.sendWithDeadline(target, "f.abs:3:5", traced, deadline)(message)`.
   * The message's arguments are names bound before (the deadline is evaluated after them);
   * whether they also go into the trace event (`traced`) is the `instrument` pass's choice.
   */
  final case class SendWithDeadline(call: Call, deadline: S) extends S
  /** `new C(..)`: `make` creates and starts the object; `cls` is its ABS class (a session role may need to know it). */
  final case class Created(make: S, cls: String) extends S
  /**
   * A synchronous call that does not suspend, as a value: `this.direct(args)` when `direct` names
   * the method's value-returning form, else `Proc.now(target.name(args))` (name: the message's).
   */
  final case class SyncNow(call: Call, direct: Option[String]) extends S

  val Unit: S = Lit("()")
  val Null: S = Lit("null")
  val This: S = Id("this")
  def str(s: String): S = Str(s)
  def call(f: String, args: S*): S = App(Id(f), Nil, args.toList)
}

/**
 * A call site as the `instrument` pass sees it: the target (evaluated first), the ABS method name,
 * the message (`owner.name(args)`: the constructor of the call as data) and where it is.
 * `target` is the target's expression as it is, `this` or one that may be null: the pass chooses
 * where the null check goes. `checkFirst`: some argument (of a call with a deadline: the deadline)
 * may fail or have an effect, so a null target must be reported before it is evaluated ([[checkedTarget]]).
 */
final case class Call(target: S, method: String, message: Message, site: CallSite, checkFirst: Boolean) {
  /** The target, or ABS's NullPointerException naming the call (`nullCheck(o, "m", "f.abs:3:5")`). */
  def checkedTarget: S =
    if (target == S.This) target else S.call("nullCheck", target, S.str(method), S.str(site.pos))
}

/** `owner.name(args)`: a call as data (a message constructor of an interface's or a class's companion). */
final case class Message(owner: String, name: String, args: List[S]) {
  def exp: S = S.App(S.Sel(S.Id(owner), name), Nil, args)
}

/**
 * What decides whether a call is instrumented: the ABS class of the caller (None: the main block),
 * the ABS classes whose objects may receive it, and its ABS position (for a protocol violation).
 */
final case class CallSite(caller: Option[String], receivers: List[String], pos: String)

/** A Scala pattern. */
sealed trait Pat extends Product with Serializable
object Pat {
  case object Wild extends Pat
  /** A binder (never a stable identifier: lowering never emits a backquoted name). */
  final case class Bind(name: String) extends Pat
  /** A constant, by its Scala text (a string literal, a case object's path). */
  final case class Const(text: String) extends Pat
  /** `path(args)` (an extractor: a case class, `::`, `Cons`). */
  final case class Extract(path: String, args: List[Pat]) extends Pat
  /** `h :: t` */
  final case class Cons(head: Pat, tail: Pat) extends Pat
  /** `x: T` (a type test binding x). */
  final case class Typed(name: String, tpe: T) extends Pat
}

/** `case pat if guard => body` */
final case class Case[+B](pat: Pat, guard: Option[S], body: B)

/** A Scala statement of plain (non-suspending) code. */
sealed trait St extends Product with Serializable
object St {
  /** `val`/`var name: tpe = rhs` */
  final case class Def(name: String, tpe: Option[T], rhs: S, mutable: Boolean) extends St
  final case class Assign(lhs: S, rhs: S) extends St
  final case class Eval(e: S) extends St
  final case class If(cond: S, thenp: List[St], elsep: List[St]) extends St
  final case class While(cond: S, body: List[St]) extends St
  /** `list.foreach { x => body }`, or with an index `list.zipWithIndex.foreach { case (x, i$) => val i = AbsInt(i$); body }` */
  final case class Foreach(list: S, elem: String, index: Option[String], body: List[St]) extends St
  final case class Match(scrutinee: S, cases: List[Case[List[St]]]) extends St
  /** `try body catch { case e: Throwable => handler } finally fin` */
  final case class Try(body: List[St], handler: Option[(String, List[St])], fin: List[St]) extends St
  /** `{ stats }`: a nested scope. */
  final case class Block(stats: List[St]) extends St
  /** A comment line (the ABS source position of what follows, for a reader of the generated code). */
  final case class Comment(text: String) extends St
  /**
   * The ABS source line of the statements that follow (up to the next `Line` or the end of the
   * declaration): printed as a comment for a reader, and recorded in the module's line table so
   * that an error the JVM raises in generated code (a stack overflow, running out of memory) is
   * reported at the model's line (see `cogs.absc.run.AbsLines`).
   */
  final case class Line(line: Int) extends St
  /**
   * `def name(): Unit = { stats }; name()`: statements in a JVM method of their own (scalac lifts a
   * local method), for a statement list too long for one method (see [[Limits]]).
   */
  final case class Part(name: String, stats: List[St]) extends St
}

/** A lowered computation of type `Proc[_]`. */
sealed trait P extends Product with Serializable
object P {
  /** `Proc.done(value)` (`Proc.unit` for `()`). */
  final case class Done(value: S) extends P
  /** Statements that run now, then `next`. */
  final case class Then(stats: List[St], next: P) extends P
  /** `first.flatMap { binder => rest }`: the binder of the value `first` gives (`None`: ignored). */
  final case class Bind(first: P, binder: Option[(String, T)], rest: P) extends P
  /** `first.map { binder => value }`: a continuation that only computes the result (made by [[Optimise]]). */
  final case class Map(first: P, binder: Option[(String, T)], value: S) extends P
  /** `first` with its value dropped (`.void`). */
  final case class Void(first: P) extends P
  /** `Proc.await(guard)`: suspends until the guard holds; gives `()`. */
  final case class Await(guard: G) extends P
  /** `Proc.await(fut)`: suspends until the future is resolved and gives its value (or rethrows). */
  final case class AwaitValue(fut: S) extends P
  /** `Proc.suspend` */
  case object Suspend extends P
  /** `fut.get`: blocks the COG until the future is resolved. */
  /** `fut.getAt(at)`: `at` is the `get`'s ABS position, for deadlock reports. */
  final case class Get(fut: S, at: String) extends P
  /** A Scala expression of type `Proc[_]`. */
  final case class Call(e: S) extends P
  /**
   * A synchronous call that may suspend: `this.self(args)` when `self` names the method (or its
   * frame form) on `this`, else `sync(target, "f.abs:3:5")(message)`. Made by lowering, replaced by
   * the `instrument` pass (see [[S.Send]]).
   */
  final case class Sync(call: cogs.absc.lower.Call, self: Option[String]) extends P
  /**
   * A synchronous call on `this` of a method compiled as a continuation: `this.m(..)`, or
   * `this.m$body(..)`, its frame form, where the effect analysis leaves the failure to the
   * caller's handler (`TypedProgram.isFrameCall`). `method` is the Scala name of the form called.
   */
  final case class SelfCall(method: String, args: List[S]) extends P
  final case class If(cond: S, thenp: P, elsep: P) extends P
  /** `Proc.loopWhile(cond) { body }` */
  final case class While(cond: S, body: P) extends P
  /** `Proc.foreach(list) { x => body }` (with an index: over `list.zipWithIndex`). */
  final case class Foreach(list: S, elem: String, index: Option[String], body: P) extends P
  final case class Match(scrutinee: S, cases: List[Case[P]]) extends P
  /** `Proc.defer { body }.recoverWith { case e: Throwable => handler }.guarantee { fin }` */
  final case class Try(body: P, handler: Option[(String, P)], fin: Option[P]) extends P
  /** `Proc.raise(e)` */
  final case class Raise(e: S) extends P

  val Unit: P = Done(S.Unit)
}

/**
 * Code of a method in frame form (the `frames` pass, [[Frames]]): the body of a JVM method
 * `m$f(p$: Process, ..): Any` that runs as plain code and returns its value, or returns
 * `Frame.Suspended` after naming a scheduling point and linking a frame (`cogs.runtime.Frame`) that
 * holds what runs after it. Nothing is allocated for the parts that do not suspend.
 */
sealed trait F extends Product with Serializable
object F {
  /** The value `v`. */
  final case class Value(v: S) extends F
  /** Statements that run now, then `next`. */
  final case class Then(stats: List[St], next: F) extends F
  /**
   * A computation the interpreter runs (`p$.run(proc)`): `suspend`, or a try or a call still in
   * `Proc` form. The code returns `Frame.Suspended`; the frame resumes with its value.
   */
  final case class Run(p: P) extends F
  /** `p$.awaitFut(f)`: `await` of a future's value, resumed with the value. */
  final case class AwaitValue(fut: S) extends F
  /**
   * `p$.getValue(f, at)`: `f.get` at ABS position `at`. The value at once if `f` is resolved (its
   * failure raised); else `Frame.Suspended`, the COG blocks, and the frame resumes with the value.
   */
  final case class Get(fut: S, at: String) extends F
  /**
   * `await g`: `p$.awaitResolved(f)` for a claim `f?`, `p$.awaitUntil(guard)` otherwise. `()` at
   * once if the guard holds; else `Frame.Suspended`, and the frame resumes with `()` once it holds.
   */
  final case class Await(guard: G) extends F
  /** `first`, then `rest` with the value of `first` bound to `binder` (None: dropped); `how` says how they join. */
  final case class Seq(first: F, binder: Option[(String, T)], rest: F, how: Join) extends F
  final case class If(cond: S, thenp: F, elsep: F) extends F
  final case class Match(scrutinee: S, cases: List[Case[F]]) extends F
  /** `throw e` */
  final case class Raise(e: S) extends F
  /**
   * `while (cond) body` whose body may suspend: the local method `loop` runs the iterations while
   * none suspends; when one does, the frame it links calls `loop` again after the body's rest.
   * `result`: the name of an iteration's value (None: every iteration suspends).
   */
  final case class While(cond: S, body: F, loop: String, result: Option[String]) extends F
  /**
   * `foreach (elem in list) body` (with an index: `elem` and `index` over `list.zipWithIndex`)
   * whose body may suspend, as [[While]] over the iterator `iterator`.
   */
  final case class Foreach(list: S, elem: String, index: Option[String], body: F, iterator: String, loop: String,
      result: Option[String]) extends F
  /**
   * A synchronous call on `this` of a method in frame form: a plain JVM call `this.method(p$, args)`
   * while the process's nesting allows (`p$.enter()`), a pending call of the trampoline otherwise.
   */
  final case class SelfCall(method: String, args: List[S]) extends F

  /** How the two parts of a [[Seq]] join: decided by the `frames` pass from what `first` may do. */
  sealed trait Join extends Product with Serializable
  /** `first` never suspends: its value is bound and `rest` follows, as in plain code. */
  case object Plain extends Join
  /** `first` always suspends: a frame whose `resume` is `rest` is linked after it. */
  case object Suspends extends Join
  /**
   * `first` may suspend: `rest` is the local method `cont`, called with the value of `first`
   * (kept in `result`) when it did not suspend, and from the frame linked when it did.
   */
  final case class Either(cont: String, result: String) extends Join
}

/** An await guard. */
sealed trait G extends Product with Serializable
object G {
  /** `f?` */
  final case class Claim(fut: S) extends G
  /** A condition over the object's state, named by its source position (`Guard.cond("M.abs:3:9")(c)`). */
  final case class Cond(at: String, cond: S) extends G
  final case class And(left: G, right: G) extends G
}

// ------------------------------------------------------------------------------ declarations

/** A lowered module: one Scala file holding one object. */
final case class LModule(absName: String, file: String, objectName: String, decls: List[LDecl])

sealed trait LDecl extends Product with Serializable

/** A data type: a sealed trait (unless its single constructor carries its name) and its constructors. */
final case class LData(absName: String, name: String, typeParams: List[String], sealedTrait: Boolean,
    companionCtors: List[LCtor], ctors: List[LCtor], selectors: List[LSelector]) extends LDecl

/**
 * A constructor: a case object or a final case class extending `parent`. `httpNames`: in a program
 * that uses the Model API, the ABS names of its arguments (None: unnamed) when at least one has a
 * name, so that the Model API returns its values as JSON objects.
 */
final case class LCtor(absName: String, name: String, typeParams: List[String], fields: List[(String, T)],
    parent: T, caseObject: Boolean, httpNames: Option[List[Option[String]]] = None) extends LDecl

/**
 * A selector function: `def head(x: ..) = x match { case c: Cons => c.head; ... }`; `located`: it
 * can fail (some constructor lacks the field) and takes its caller's position as a second argument.
 */
final case class LSelector(absName: String, name: String, typeParams: List[String], param: T, result: T,
    owners: List[(String, String)], // (constructor pattern type, field)
    located: Boolean)

/** An exception declaration: a case object or case class extending `AbsException`. */
final case class LException(ctor: LCtor, selectors: List[LSelector]) extends LDecl

/** A function: `def name[tps](funParams)(params): result = body`. */
final case class LFunction(absName: String, name: String, typeParams: List[String], funParams: List[(String, T)],
    params: List[(String, T)], result: T, body: S, line: Int = 0) extends LDecl

/** An interface: a trait of `Proc`-returning methods and a companion of message constructors. */
final case class LInterface(absName: String, name: String, supers: List[T], methods: List[LSig]) extends LDecl

final case class LSig(absName: String, name: String, params: List[(String, T)], result: T)

/**
 * A class: an `ActiveObject` with fields, an init block, `recover`, methods and message constructors.
 * `mortal`: an object of it can die (some method may fail, or it dies by `die`; [[ObjectDeath]]),
 * so its methods check `dead$` first (each method's `deadCheck` says so). `traceName`: the name
 * traces, monitor configurations and `toString` show (the model's, shortened as `Naming` says).
 */
final case class LClass(absName: String, name: String, params: List[(String, T)], interfaces: List[T],
    fields: List[(String, T, S)], init: Option[LInit], recover: List[Case[List[St]]], mortal: Boolean,
    methods: List[LMethod], messageSigs: List[LSig], http: Option[LHttp], traceName: String) extends LDecl

/**
 * What the Model API sees of a class, in a program that registers objects with `[HTTPName]`:
 * the `[HTTPCallable]` methods of its interfaces and its fields (`(ABS name, Scala name)`).
 */
final case class LHttp(methods: List[LHttpMethod], fields: List[(String, String)])

/**
 * An `[HTTPCallable]` method: `name` is the Scala name of the class's method (and message
 * constructor); each parameter is `(ABS name, the HttpType as Scala text, Scala type)`; `result`
 * is the ABS result type, as `/call/NAME` lists it.
 */
final case class LHttpMethod(absName: String, name: String, params: List[(String, String, T)], result: String)

/** An init block: plain statements run in the constructor, or a process the object starts with. */
final case class LInit(plain: Option[List[St]], suspending: Option[P])

/**
 * A method. `body` is plain statements and a result (`plain`) or a lowered computation (`cps`);
 * `shadowedParams` are the parameters the body assigns: `(name in the signature, local name)`.
 * `direct`: the name of the plain body's value-returning form (`m$now`), when synchronous calls
 * on `this` call it directly; `m` then only wraps its value in a `Proc`. `frame`: the name of a
 * continuation's frame form (`m$body`: its body without the failure handler), when some
 * synchronous call on `this` calls it (`TypedProgram.hasFrameForm`); `m` is then `m$body` with
 * the handler. Object death ([[ObjectDeath]]): `deadCheck`, the method first fails with
 * `ObjectDeadException` if the object is dead (its class is `mortal`); `handler`, an exception
 * that leaves the body goes to `recover$` (the body may fail). Without either the method is its
 * body alone. `frameCode` (set by the `frames` pass, [[Frames]]): the name of the method's frame
 * form (`m$f`) and its code; `m` and `m$body` are then calls of it as data (`FrameCall`), and
 * `frame` is kept only where `Proc` code still calls `m$body` (a self-call inside a `try`).
 */
final case class LMethod(sig: LSig, overrides: Boolean, shadowedParams: List[(String, String)],
    plain: Option[(List[St], S)], cps: Option[P], direct: Option[String] = None, frame: Option[String] = None,
    deadCheck: Boolean = true, handler: Boolean = true, frameCode: Option[(String, F)] = None) extends LDecl

/**
 * A constant of the module, computed on first use: `lazy val name: tpe = rhs` (a string, an
 * integer or a list literal too large to be written where it is used, see [[Limits]]).
 */
final case class LConst(name: String, tpe: T, rhs: S) extends LDecl

/** The main block: `def main(): Proc[Unit]` (`Proc[Boolean]` for a test, ending in `testresult`). */
final case class LMain(test: Boolean, body: P) extends LDecl

/**
 * The whole lowered program. `mainModule`: the object whose `main` the program runs. `origins`:
 * the ABS construct behind each JVM method of the generated code (`absmodel/Bank$Account.deposit`,
 * `absmodel/Bank$.main`), for reporting a limit of the JVM (a method's 64 KB of code) at the
 * model's position.
 */
final case class LProgram(pkg: String, modules: List[LModule], mainModule: Option[LModule], mainIsTest: Boolean,
    monitorConfig: Option[String], origins: Map[String, (cogs.absc.ast.Pos, String)] = Map.empty)
