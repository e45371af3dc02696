package cogs.absc.typecheck

import cogs.absc.ast.CompilationUnit
import cogs.absc.parse.Parser

/**
 * The standard library's declarations (module `ABS.StdLib`), written as ABS source and
 * parsed with our own parser, so that the checker treats them exactly like user code.
 *
 * Every module imports `ABS.StdLib` implicitly (`import * from ABS.StdLib;`) unless it has
 * an import clause naming `ABS.StdLib` itself, in which case only what that clause names
 * is imported (as the manual says).
 *
 * The built-in types (`Int`, `Rat`, `Float`, `String`, `Fut<A>`, `Destiny`, `Exception`)
 * are data types without constructors; the checker knows them by name. Functions are
 * `builtin` (the backend supplies them: see `cogs.absc.lib`), except the partial functions
 * `map`, `filter`, `foldl` and `foldr`, whose bodies are given here because the types of
 * their function parameters are inferred from their bodies. Selector functions come from
 * named constructor arguments: `head`, `tail` (List), `fst`, `snd` (Pair), `fstT`, `sndT`,
 * `trdT` (Triple), `fromJust` (Maybe), `left`, `right` (Either).
 *
 * Timed ABS's data types `Time` and `Duration`, their functions and `now()` / `deadline()` (the
 * runtime's simulated clock, see `cogs.absc.lib.AbsTime`) are here; the deployment module
 * `ABS.DC` is not: uses of its names are reported as "not supported yet" (see `Unsupported`).
 *
 * A second module, `ABS.Scheduler`, declares what user-defined schedulers see: the opaque type
 * `Process` and its functions (implemented by `cogs.absc.lib.AbsProcess`). Unlike `ABS.StdLib`
 * it is imported only where a module imports it.
 */
object Prelude {

  val ModuleName = "ABS.StdLib"
  val FileName = "<prelude>"

  val source: String =
    """module ABS.StdLib;
      |export *;
      |
      |// ---- built-in types
      |data Unit = Unit;
      |data Bool = True | False;
      |data Int;
      |data Rat;
      |data Float;
      |data String;
      |data Fut<A>;
      |data Destiny;
      |data Exception;
      |
      |// The interface every interface extends and every object has.
      |interface Object { }
      |
      |// ---- predefined exceptions
      |exception DivisionByZeroException;
      |exception AssertionFailException;
      |exception PatternMatchFailException;
      |exception NullPointerException;
      |exception StackOverflowException;
      |exception HeapOverflowException;
      |exception KeyboardInterruptException;
      |exception ObjectDeadException;
      |
      |// ---- data types
      |data Maybe<A> = Nothing | Just(A fromJust);
      |data Either<A, B> = Left(A left) | Right(B right);
      |data Pair<A, B> = Pair(A fst, B snd);
      |data Triple<A, B, C> = Triple(A fstT, B sndT, C trdT);
      |data List<A> = Nil | Cons(A head, List<A> tail);
      |// Sets and maps are opaque to models; their constructors exist for older models only.
      |data Set<A> = EmptySet | Insert(A, Set<A>);
      |data Map<K, V> = EmptyMap | InsertAssoc(Pair<K, V>, Map<K, V>);
      |
      |// ---- Booleans
      |def Bool and(Bool a, Bool b) = builtin;
      |def Bool not(Bool a) = builtin;
      |
      |// ---- numbers
      |def A max<A>(A a, A b) = builtin;
      |def A min<A>(A a, A b) = builtin;
      |def A abs<A>(A x) = builtin;
      |def Rat pow(Rat b, Int n) = builtin;
      |def Rat sqrt_newton(Rat x, Rat estimate, Rat epsilon) = builtin;
      |def Rat exp_newton(Rat x, Rat epsilon) = builtin;
      |def Float sqrt(Float x) = builtin;
      |def Float log(Float x) = builtin;
      |def Float exp(Float x) = builtin;
      |def Int random(Int below) = builtin;
      |def Int truncate(Rat a) = builtin;
      |def Float float(Rat a) = builtin;
      |def Rat rat(Float f) = builtin;
      |def Int floor(Float f) = builtin;
      |def Int ceil(Float f) = builtin;
      |def Int numerator(Rat a) = builtin;
      |def Int denominator(Rat a) = builtin;
      |
      |// ---- optionals, alternatives, tuples
      |def Bool isJust<A>(Maybe<A> m) = builtin;
      |def A fromJustDefault<A>(Maybe<A> m, A default) = builtin;
      |def Bool isLeft<A, B>(Either<A, B> e) = builtin;
      |def Bool isRight<A, B>(Either<A, B> e) = builtin;
      |def C trd<A, B, C>(Triple<A, B, C> t) = builtin;
      |
      |// ---- lists
      |def List<A> list<A>(List<A> l) = builtin;
      |def Int length<A>(List<A> l) = builtin;
      |def Bool isEmpty<A>(List<A> l) = builtin;
      |def A nth<A>(List<A> l, Int n) = builtin;
      |def List<A> without<A>(List<A> l, A a) = builtin;
      |def List<A> concatenate<A>(List<A> l1, List<A> l2) = builtin;
      |def List<A> appendright<A>(List<A> l, A p) = builtin;
      |def List<A> reverse<A>(List<A> l) = builtin;
      |def List<A> copy<A>(A p, Int n) = builtin;
      |def List<Int> range(Int lower, Int upper) = builtin;
      |
      |// Partial functions: the types of f, p and their uses are inferred from these bodies.
      |def List<B> map<A, B>(f)(List<A> l) =
      |  case l { Nil => Nil | Cons(x, rest) => Cons(f(x), map(rest)) };
      |def List<A> filter<A>(p)(List<A> l) =
      |  case l { Nil => Nil | Cons(x, rest) => if p(x) then Cons(x, filter(rest)) else filter(rest) };
      |def B foldl<A, B>(f)(List<A> l, B acc) =
      |  case l { Nil => acc | Cons(x, rest) => foldl(rest, f(x, acc)) };
      |def B foldr<A, B>(f)(List<A> l, B acc) =
      |  case l { Nil => acc | Cons(x, rest) => f(x, foldr(rest, acc)) };
      |
      |// ---- sets
      |def Set<A> set<A>(List<A> l) = builtin;
      |def Bool contains<A>(Set<A> s, A e) = builtin;
      |def Bool emptySet<A>(Set<A> s) = builtin;
      |def Int size<A>(Set<A> s) = builtin;
      |def List<A> elements<A>(Set<A> s) = builtin;
      |def Set<A> union<A>(Set<A> s1, Set<A> s2) = builtin;
      |def Set<A> intersection<A>(Set<A> s1, Set<A> s2) = builtin;
      |def Set<A> difference<A>(Set<A> s1, Set<A> s2) = builtin;
      |def Bool isSubset<A>(Set<A> maybeSubset, Set<A> s) = builtin;
      |def Set<A> insertElement<A>(Set<A> s, A e) = builtin;
      |def Set<A> remove<A>(Set<A> s, A e) = builtin;
      |def A take<A>(Set<A> s) = builtin;
      |def Maybe<A> takeMaybe<A>(Set<A> s) = builtin;
      |def Bool hasNext<A>(Set<A> s) = builtin;
      |def Pair<Set<A>, A> next<A>(Set<A> s) = builtin;
      |
      |// ---- maps
      |def Map<K, V> map<K, V>(List<Pair<K, V>> l) = builtin;
      |def Bool emptyMap<K, V>(Map<K, V> m) = builtin;
      |def Map<K, V> removeKey<K, V>(Map<K, V> m, K k) = builtin;
      |def List<V> values<K, V>(Map<K, V> m) = builtin;
      |def Set<K> keys<K, V>(Map<K, V> m) = builtin;
      |def List<Pair<K, V>> entries<K, V>(Map<K, V> m) = builtin;
      |def Maybe<V> lookup<K, V>(Map<K, V> m, K k) = builtin;
      |def Maybe<V> lookupMaybe<K, V>(Map<K, V> m, K k) = builtin;
      |def V lookupUnsafe<K, V>(Map<K, V> m, K k) = builtin;
      |def V lookupDefault<K, V>(Map<K, V> m, K k, V d) = builtin;
      |def Maybe<K> lookupReverse<K, V>(Map<K, V> m, V v) = builtin;
      |def K lookupReverseDefault<K, V>(Map<K, V> m, V v, K d) = builtin;
      |def Map<K, V> insert<K, V>(Map<K, V> m, Pair<K, V> p) = builtin;
      |def Map<K, V> put<K, V>(Map<K, V> m, K k, V v) = builtin;
      |
      |// ---- strings
      |def String toString<A>(A a) = builtin;
      |def String intToString(Int n) = builtin;
      |def String substr(String s, Int start, Int length) = builtin;
      |def Int strlen(String s) = builtin;
      |
      |// ---- Timed ABS (the simulated clock is the runtime's)
      |data Time = Time(Rat timeValue);
      |data Duration = Duration(Rat durationValue) | InfDuration;
      |type Deadline = Duration;
      |def Time now() = builtin;
      |def Duration deadline() = builtin;
      |def Rat lowlevelDeadline() = builtin;
      |def Int currentms() = builtin;
      |def Rat timeDifference(Time t1, Time t2) = builtin;
      |def Bool timeLessThan(Time t1, Time t2) = builtin;
      |def Bool isDurationInfinite(Duration d) = builtin;
      |def Time addDuration(Time t, Duration d) = builtin;
      |def Time subtractDuration(Time t, Duration d) = builtin;
      |def Bool durationLessThan(Duration d1, Duration d2) = builtin;
      |def Duration subtractFromDuration(Duration d, Rat v) = builtin;
      |
      |// ---- input and output, debugging, clock
      |def Unit println(String s) = builtin;
      |def Unit print(String s) = builtin;
      |def String readln() = builtin;
      |def A watch<A>(A a) = builtin;
      |def A watchEx<A, B>(A a, B info) = builtin;
      |def Int ms_since_model_start() = builtin;
      |
      |module ABS.Scheduler;
      |export *;
      |import * from ABS.StdLib;
      |
      |// The tag of the annotation [Scheduler: f(queue, field, ...)].
      |data Scheduler;
      |// A process, as a scheduler function sees it; models cannot make one.
      |data Process;
      |def String method(Process p) = builtin;
      |def Fut<Destiny> destinyOf(Process p) = builtin;
      |def Time arrival(Process p) = builtin;
      |def Duration cost(Process p) = builtin;
      |def Duration proc_deadline(Process p) = builtin;
      |def Time start(Process p) = builtin;
      |def Time finish(Process p) = builtin;
      |def Bool crit(Process p) = builtin;
      |def Int value(Process p) = builtin;
      |def Process defaultscheduler(List<Process> queue) = builtin;
      |def Process randomscheduler(List<Process> queue) = builtin;
      |""".stripMargin

  /** The module of user-defined schedulers' declarations, second in the prelude. */
  val SchedulerModule = "ABS.Scheduler"

  /** The parsed prelude (parsed once). */
  lazy val unit: CompilationUnit = Parser.parse(FileName, source) match {
    case Right(u) => u
    case Left(ds) => throw new IllegalStateException("absc: the prelude does not parse:\n" + ds.mkString("\n"))
  }
}
