package cogs.absc

import java.math.BigInteger

import cogs.runtime.{Active, Cogs, Fut, Proc}

/**
 * The ABS standard library (module `ABS.StdLib`), natively in Scala. Generated programs
 * `import cogs.absc.lib._`; docs/values.md is the contract between this package and the emitter
 * (which Scala type represents which ABS type, and how each construct is written).
 *
 * Every function has the semantics abslang.abs and the reference manual give it. Partial
 * functions fail as their abslang definitions do: a selector or a `case` with no matching branch
 * throws [[PatternMatchFailException]] (with a detail message saying which call failed), and `/`
 * or `%` by zero throws [[DivisionByZeroException]].
 *
 * Name clashes to know when emitting calls: `toString(x)` inside a class body resolves to the
 * class's own `toString`, so emit [[absToString]] (or `lib.toString(x)`); ABS `set(l)` and
 * `map(l)` (one list argument, not the n-ary `set[..]`/`map[..]`) are [[setFromList]] and
 * [[mapFromList]]; ABS `list(l)` is the identity (emit `l`).
 */
package object lib {

  // ===========================================================================================
  // Constructors and constants
  // ===========================================================================================

  /** ABS `True` (also as a pattern: `case True =>`). */
  final val True = true

  /** ABS `False`. */
  final val False = false

  /** ABS `Cons(h, t)`: Scala's `::`, as a constructor and as a (allocation-free) pattern. */
  val Cons: scala.collection.immutable.::.type = scala.collection.immutable.::

  /** ABS `EmptySet` (a value, and a pattern: sets are compared with `==`). */
  val EmptySet: AbsSet[scala.Nothing] = AbsSet.empty

  /** ABS `EmptyMap`. */
  val EmptyMap: AbsMap[scala.Nothing, scala.Nothing] = AbsMap.empty

  /** ABS `Insert(e, s)` (raw set constructor of abslang; the same as `insertElement`). */
  object Insert {
    def apply[A](e: A, s: AbsSet[A]): AbsSet[A] = s.incl(e)
    def unapply[A](s: AbsSet[A]): Option[(A, AbsSet[A])] = AbsSet.Insert.unapply(s)
  }

  /** ABS `InsertAssoc(p, m)` (raw map constructor of abslang; the same as `insert(m, p)`). */
  object InsertAssoc {
    def apply[K, V](p: Pair[K, V], m: AbsMap[K, V]): AbsMap[K, V] = m.insertFirst(p)
    def unapply[K, V](m: AbsMap[K, V]): Option[(Pair[K, V], AbsMap[K, V])] = AbsMap.InsertAssoc.unapply(m)
  }

  /** abslang.abs's spelling of [[StackOverflowException]]. */
  val StackOverflowEcxeption: StackOverflowException.type = StackOverflowException
  type StackOverflowEcxeption = StackOverflowException

  // ===========================================================================================
  // Operators the emitter needs beyond Scala's
  // ===========================================================================================

  /** ABS `a < b` on any type (the [[Ord]] order). Numbers may use their own `<` directly. */
  def lt(a: Any, b: Any): Boolean = Ord.compare(a, b) < 0
  def le(a: Any, b: Any): Boolean = Ord.compare(a, b) <= 0
  def gt(a: Any, b: Any): Boolean = Ord.compare(a, b) > 0
  def ge(a: Any, b: Any): Boolean = Ord.compare(a, b) >= 0

  /** String comparisons by code point (faster than the generic ones). */
  def lt(a: String, b: String): Boolean = Ord.compareStrings(a, b) < 0
  def le(a: String, b: String): Boolean = Ord.compareStrings(a, b) <= 0
  def gt(a: String, b: String): Boolean = Ord.compareStrings(a, b) > 0
  def ge(a: String, b: String): Boolean = Ord.compareStrings(a, b) >= 0

  /**
   * Float `/` with the manual's rule (a divisor equal to 0 raises [[DivisionByZeroException]], as
   * for Int and Rat, rather than giving an infinity or NaN); `at` is the ABS `/` (see below).
   */
  def fdiv(a: Double, b: Double, at: String): Double =
    if (b == 0.0) throw DivisionByZeroException("Float division by zero at " + at) else a / b

  /** Float `%` (truncated, as `math:fmod`/Java `%`); a zero divisor raises [[DivisionByZeroException]]. */
  def fmod(a: Double, b: Double, at: String): Double =
    if (b == 0.0) throw DivisionByZeroException("Float remainder by zero at " + at) else a % b

  /** ABS `assert c;`: throws [[AssertionFailException]] (with `where` as detail) if `c` is False. */
  def absAssert(c: Boolean, where: String = null): Unit =
    if (!c) throw (if (where == null) AssertionFailException else AssertionFailException(where))

  /** The end of a `case`/`switch` that matched nothing. */
  def matchFail(value: Any, where: String = null): scala.Nothing =
    throw PatternMatchFailException(
      "no pattern matches " + Show.show(value) + (if (where == null) "" else " at " + where))

  // Positions reach run time only on the path that throws: the call sites of the functions
  // below pass their ABS `file:line:col` as a string constant (one `ldc`, nothing computed, no
  // state written), and only the failure reads it. A per-process "current line" updated at
  // every statement would cost a store on every statement of every program, and stack traces
  // are off for ABS exceptions (they are control flow) and would need a line map back to ABS.

  /** `d`, or [[DivisionByZeroException]] naming `at` (the ABS `/` or `%`) if it is 0. */
  def nonZero[A <: AbsRat](d: A, at: String): A =
    if (d.signum == 0) throw DivisionByZeroException("division by zero at " + at) else d

  /**
   * What ABS `throw e;` at `at` throws: a library exception with `at` as its detail (unless it
   * has one), a user's exception wrapped with `at` (see [[ThrownAt]]), so that an uncaught one is
   * reported with the line that threw it.
   */
  def thrown(e: AbsException, at: String): Throwable = e match {
    case b: BuiltinAbsException => if (b.detail == null) b.withDetail("thrown at " + at) else b
    case u                      => new ThrownAt(u, at)
  }

  /**
   * An exception thrown while an object of class `cls` was created at `at` (its field
   * initialisers or init block): the same ABS exception, with a detail naming the class and the
   * creator's position (a user's exception wrapped in [[CreationFailed]], which ABS code sees
   * through). JVM errors (out of memory, stack overflow, which the runner reports itself) pass
   * unchanged.
   */
  def initFailed(e: Throwable, cls: String, at: String): Throwable = {
    val where = s"while creating an object of class $cls at $at"
    e match {
      case _: VirtualMachineError => e
      case c: CreationFailed => new CreationFailed(c.exception, c.where + ", " + where)
      case t: ThrownAt => new CreationFailed(t.exception, s"thrown at ${t.where}, $where")
      case _ => AbsException.lift(e) match {
        case b: BuiltinAbsException => b.withDetail(if (b.detail == null) where else b.detail + ", " + where)
        // A user's exception is a value of the model (it compares and matches by its fields
        // alone), so the place travels beside it; see CreationFailed.
        case u: AbsException => new CreationFailed(u, where)
        case _ => e
      }
    }
  }

  /**
   * A selector of a user data type (`x` of `data D = A(Int x) | B`) applied to a constructor
   * without that field, at `at` (the ABS call).
   */
  def selectorFail(value: Any, selector: String, at: String): scala.Nothing =
    throw PatternMatchFailException(selector + "(" + Show.show(value) + "): no such field at " + at)

  /** `o`, or [[NullPointerException]] if it is null (calls, `await`, `get`). */
  def nullCheck[A <: AnyRef](o: A, what: String = null): A =
    if (o == null) throw (if (what == null) NullPointerException else NullPointerException(what)) else o

  /**
   * The target `o` of a call of `method` at `at` (`file.abs:line:col`), or [[NullPointerException]]
   * naming the call if it is null. The message is built only then: the call site passes two
   * constants it needs anyway instead of a text of its own.
   */
  def nullCheck[A <: AnyRef](o: A, method: String, at: String): A =
    if (o == null) throw NullPointerException("call of '" + method + "' on null at " + at) else o

  // The calls of generated code. The message (`Iface.m(x)`, see [[AbsCall]]) knows its method's
  // ABS name, so a call site writes it once; the position `at` (`file.abs:line:col`) is the
  // call's, and names it if the target is null. The target and the message's arguments are
  // evaluated before the target is checked: absc writes these forms only where no argument can
  // fail or have an effect (a variable, a literal, a constructor, arithmetic), so the order is not
  // seen; elsewhere it checks the target first, `send(nullCheck(o, "m", at))(Iface.m(x))`.

  /** ABS `o!m(..)` at `at`: its future. */
  def send[T <: Active, A](o: T, at: String)(msg: T => Proc[A]): Fut[A] = {
    Cogs.send(AbsCall.target(o, msg, at), AbsCall.methodOf(msg), msg)
  }

  /** ABS `o!m(..)` on a target known not to be null (`this`, or one already checked). */
  def send[T <: Active, A](o: T)(msg: T => Proc[A]): Fut[A] = Cogs.send(o, AbsCall.methodOf(msg), msg)

  /** The statement `o!m(..);` at `at`, whose future nobody can read: a one-way call ([[Cogs.tell]]). */
  def tell[T <: Active](o: T, at: String)(msg: T => Proc[Any]): Unit = {
    Cogs.tell(AbsCall.target(o, msg, at), AbsCall.methodOf(msg), msg)
  }

  /** [[tell]] on a target known not to be null. */
  def tell[T <: Active](o: T)(msg: T => Proc[Any]): Unit = Cogs.tell(o, AbsCall.methodOf(msg), msg)

  /** ABS `o.m(..)` at `at` (see [[Proc.sync]]). */
  def sync[T <: Active, A](o: T, at: String)(msg: T => Proc[A]): Proc[A] = {
    Proc.sync(AbsCall.target(o, msg, at), AbsCall.methodOf(msg))(msg)
  }

  /** [[sync]] on a target known not to be null. */
  def sync[T <: Active, A](o: T)(msg: T => Proc[A]): Proc[A] = Proc.sync(o, AbsCall.methodOf(msg))(msg)

  // ===========================================================================================
  // Bool
  // ===========================================================================================

  def and(a: Boolean, b: Boolean): Boolean = a && b
  def not(a: Boolean): Boolean = !a

  // ===========================================================================================
  // Numbers
  // ===========================================================================================

  /** ABS `max`: `b` if `a < b`, else `a` (any type). */
  def max(a: AbsInt, b: AbsInt): AbsInt = if (a < b) b else a
  def max(a: AbsRat, b: AbsRat): AbsRat = if (a < b) b else a
  def max(a: Double, b: Double): Double = if (a < b) b else a
  def max[A](a: A, b: A): A = if (Ord.compare(a, b) < 0) b else a

  /** ABS `min`: `a` if `a < b`, else `b` (any type). */
  def min(a: AbsInt, b: AbsInt): AbsInt = if (a < b) a else b
  def min(a: AbsRat, b: AbsRat): AbsRat = if (a < b) a else b
  def min(a: Double, b: Double): Double = if (a < b) a else b
  def min[A](a: A, b: A): A = if (Ord.compare(a, b) < 0) a else b

  def abs(x: AbsInt): AbsInt = x.abs
  def abs(x: AbsRat): AbsRat = x.abs
  def abs(x: Double): Double = java.lang.Math.abs(x)

  /** ABS `pow(b, n)`: `b^n`, `1 / b^-n` for negative `n` ([[DivisionByZeroException]] for 0). */
  def pow(b: AbsRat, n: AbsInt): AbsRat = AbsRat.pow(b, n)

  /** ABS `sqrt_newton(x, estimate, epsilon)`, the same iteration as abslang.abs. */
  def sqrt_newton(x: AbsRat, estimate: AbsRat, epsilon: AbsRat): AbsRat = {
    var est = estimate
    while (true) {
      val next = (est + x / est) / AbsInt.Two
      if ((est - next).abs < epsilon) return est
      est = next
    }
    est
  }

  /** ABS `exp_newton(x, epsilon)`, the same series as abslang.abs. */
  def exp_newton(x: AbsRat, epsilon: AbsRat): AbsRat = {
    def helper(acc0: AbsRat, x: AbsRat, round0: AbsInt, num0: AbsRat, den0: AbsInt): AbsRat = {
      var acc = acc0
      var round = round0
      var num = num0
      var den = den0
      while (true) {
        val next = (num * x) / (den * round)
        if (next.abs < epsilon) return acc + next
        acc = acc + next
        num = num * x
        den = den * round
        round = round + AbsInt.One
      }
      acc
    }
    val x2 = x * x
    if (x.signum < 0) AbsInt.One / helper(AbsInt.One - x + x2 / AbsInt.Two, -x, AbsInt(3), x2, AbsInt.Two)
    else helper(AbsInt.One + x + x2 / AbsInt.Two, x, AbsInt(3), x2, AbsInt.Two)
  }

  /** ABS `random(n)`: uniform in `[0, n)`; [[PatternMatchFailException]] if `n <= 0`. */
  def random(below: AbsInt): AbsInt = AbsRandom.below(below)

  /** ABS `truncate`: towards zero. */
  def truncate(a: AbsRat): AbsInt = a.truncate

  /** ABS `float`: the nearest Float. */
  def float(a: AbsRat): Double = a.toDouble

  /**
   * ABS `rat`: the rational of the shortest decimal that reads back as `f` (as the Erlang
   * backend does, so `rat(0.1) == 1/10`). NaN and infinities raise [[PatternMatchFailException]].
   */
  def rat(f: Double): AbsRat = {
    checkFinite("rat", f)
    if (f == 0.0) return AbsInt.Zero
    val (digits, place) = Show.shortestDigits(java.lang.Math.abs(f))
    val unscaled = new BigInteger(if (f < 0) "-" + digits else digits)
    val exp10 = place - digits.length
    if (exp10 >= 0) AbsInt(unscaled.multiply(BigInteger.TEN.pow(exp10)))
    else AbsRat.make(AbsInt(unscaled), AbsInt(BigInteger.TEN.pow(-exp10)))
  }

  /** ABS `floor`: the largest Int <= f (exact for every finite double). */
  def floor(f: Double): AbsInt = { checkFinite("floor", f); doubleToInt(java.lang.Math.floor(f)) }

  /** ABS `ceil`: the smallest Int >= f. */
  def ceil(f: Double): AbsInt = { checkFinite("ceil", f); doubleToInt(java.lang.Math.ceil(f)) }

  /** ABS `sqrt` (IEEE: NaN for a negative argument). */
  def sqrt(x: Double): Double = java.lang.StrictMath.sqrt(x)

  /** ABS `log` (natural logarithm; `StrictMath`, so results are the same on every JVM). */
  def log(x: Double): Double = java.lang.StrictMath.log(x)

  /** ABS `exp` (`StrictMath`: `exp(1.0)` is 2.7182818284590455, as in the manual). */
  def exp(x: Double): Double = java.lang.StrictMath.exp(x)

  def numerator(a: AbsRat): AbsInt = a.numerator
  def denominator(a: AbsRat): AbsInt = a.denominator

  private def checkFinite(fn: String, f: Double): Unit =
    if (java.lang.Double.isNaN(f) || java.lang.Double.isInfinite(f))
      throw PatternMatchFailException(s"$fn(${Show.formatDouble(f)}): not a finite number")

  private def doubleToInt(integral: Double): AbsInt =
    if (java.lang.Math.abs(integral) < 9.0e18) AbsInt(integral.toLong)
    else AbsInt(new java.math.BigDecimal(integral).toBigInteger)

  // ===========================================================================================
  // Maybe, Either, Pair, Triple
  // ===========================================================================================

  def isJust[A](m: Maybe[A]): Boolean = m.isInstanceOf[Just[_]]

  /** ABS selector `fromJust`; [[PatternMatchFailException]] on `Nothing`. */
  def fromJust[A](m: Maybe[A]): A = m match {
    case Just(a) => a
    case _       => throw PatternMatchFailException("fromJust(Nothing)")
  }

  /** `fromJust` called at `at` (an ABS `file:line:col`), which a failure names. */
  def fromJust[A](m: Maybe[A], at: String): A = m match {
    case Just(a) => a
    case _       => throw PatternMatchFailException("fromJust(Nothing) at " + at)
  }

  def fromJustDefault[A](m: Maybe[A], default: A): A = m match {
    case Just(a) => a
    case _       => default
  }

  /** ABS selector `left`; [[PatternMatchFailException]] on a `Right`. */
  def left[A, B](e: Either[A, B]): A = e match {
    case Left(a) => a
    case _       => throw PatternMatchFailException("left(" + Show.show(e) + ")")
  }

  /** ABS selector `right`; [[PatternMatchFailException]] on a `Left`. */
  def right[A, B](e: Either[A, B]): B = e match {
    case Right(b) => b
    case _        => throw PatternMatchFailException("right(" + Show.show(e) + ")")
  }

  def isLeft[A, B](e: Either[A, B]): Boolean = e.isInstanceOf[Left[_]]
  def isRight[A, B](e: Either[A, B]): Boolean = e.isInstanceOf[Right[_]]

  def fst[A, B](p: Pair[A, B]): A = p.fst
  def snd[A, B](p: Pair[A, B]): B = p.snd

  def fstT[A, B, C](t: Triple[A, B, C]): A = t.fstT
  def sndT[A, B, C](t: Triple[A, B, C]): B = t.sndT
  def trdT[A, B, C](t: Triple[A, B, C]): C = t.trdT

  /** Deprecated in abslang.abs; the same as `trdT`. */
  def trd[A, B, C](t: Triple[A, B, C]): C = t.trdT

  // ===========================================================================================
  // Lists (ABS List = scala.collection.immutable.List; Cons = ::)
  // ===========================================================================================

  /** ABS `list[a, b, ..]`. */
  def list[A](elems: A*): List[A] = elems.toList

  // The three below are how absc keeps huge literals within the class-file limits (a method's
  // 64 KB of code, a constant's 65,535 bytes): see Limits in the compiler.

  /** A string constant too long for one class-file constant, written in chunks. */
  def strJoin(chunks: String*): String = {
    val b = new java.lang.StringBuilder
    chunks.foreach(b.append)
    b.toString
  }

  /** A list literal of integer constants, written as their decimal digits separated by `,`. */
  def intList(digits: String): List[AbsInt] = {
    val b = List.newBuilder[AbsInt]
    var from = 0
    while (from < digits.length) {
      var to = digits.indexOf(',', from)
      if (to < 0) to = digits.length
      b += AbsInt(digits.substring(from, to))
      from = to + 1
    }
    b.result()
  }

  /** A long list literal, built in chunks (each from a helper method of its own), in order. */
  def listConcat[A](chunks: List[A]*): List[A] = {
    val b = List.newBuilder[A]
    chunks.foreach(b ++= _)
    b.result()
  }

  /** ABS selector `head`; [[PatternMatchFailException]] on `Nil`. */
  def head[A](l: List[A]): A =
    if (l.isEmpty) throw PatternMatchFailException("head(Nil)") else l.head

  /** `head` called at `at` (an ABS `file:line:col`), which a failure names. */
  def head[A](l: List[A], at: String): A =
    if (l.isEmpty) throw PatternMatchFailException("head(Nil) at " + at) else l.head

  /** `tail` called at `at`, which a failure names. */
  def tail[A](l: List[A], at: String): List[A] =
    if (l.isEmpty) throw PatternMatchFailException("tail(Nil) at " + at) else l.tail

  /** ABS selector `tail`; [[PatternMatchFailException]] on `Nil`. */
  def tail[A](l: List[A]): List[A] =
    if (l.isEmpty) throw PatternMatchFailException("tail(Nil)") else l.tail

  def length(l: List[_]): AbsInt = AbsInt(l.length)

  def isEmpty(l: List[_]): Boolean = l.isEmpty

  /** ABS `nth(l, n)`, 0-based; [[PatternMatchFailException]] unless `0 <= n < length(l)`. */
  def nth[A](l: List[A], n: AbsInt): A = nth(l, n, null)

  /** `nth` called at `at` (an ABS `file:line:col`, or null), which a failure names. */
  def nth[A](l: List[A], n: AbsInt, at: String): A = {
    if (n.signum >= 0 && n.isLong) {
      var rest = l
      var i = n.lv
      while (i > 0 && rest.nonEmpty) { rest = rest.tail; i -= 1 }
      if (rest.nonEmpty) return rest.head
    }
    throw PatternMatchFailException(s"nth(list of length ${l.length}, $n): no such element" + (if (at == null) "" else " at " + at))
  }

  /** ABS `without(l, a)`: `l` without any element `== a`. */
  def without[A](l: List[A], a: A): List[A] = l.filterNot(_ == a)

  def concatenate[A](l1: List[A], l2: List[A]): List[A] = l1 ::: l2

  def appendright[A](l: List[A], p: A): List[A] = l :+ p

  def reverse[A](l: List[A]): List[A] = l.reverse

  /** ABS `copy(p, n)`: `n` times `p`; [[PatternMatchFailException]] for a negative `n`. */
  def copy[A](p: A, n: AbsInt): List[A] = {
    if (n.signum < 0 || !n.isLong || n.lv > Integer.MAX_VALUE)
      throw PatternMatchFailException(s"copy(_, $n): the count must be a non-negative Int")
    List.fill(n.lv.toInt)(p)
  }

  /** ABS `range(lower, upper)`: `list[lower, .., upper]`, empty if `lower > upper`. */
  def range(lower: AbsInt, upper: AbsInt): List[AbsInt] = {
    var acc: List[AbsInt] = scala.Nil
    var i = upper
    while (i >= lower) {
      acc = i :: acc
      i = i - AbsInt.One
    }
    acc
  }

  /** ABS `map(f)(l)`. */
  def map[A, B](f: A => B)(l: List[A]): List[B] = l.map(f)

  /** ABS `filter(p)(l)`. */
  def filter[A](p: A => Boolean)(l: List[A]): List[A] = l.filter(p)

  /** ABS `foldl(f)(l, init)`: `f(xn, .. f(x2, f(x1, init)))`; `f` takes the element first. */
  def foldl[A, B](f: (A, B) => B)(l: List[A], init: B): B = {
    var acc = init
    var rest = l
    while (rest.nonEmpty) { acc = f(rest.head, acc); rest = rest.tail }
    acc
  }

  /** ABS `foldr(f)(l, init)`: `f(x1, f(x2, .. f(xn, init)))`. */
  def foldr[A, B](f: (A, B) => B)(l: List[A], init: B): B = {
    var acc = init
    var rest = l.reverse
    while (rest.nonEmpty) { acc = f(rest.head, acc); rest = rest.tail }
    acc
  }

  // ===========================================================================================
  // Sets
  // ===========================================================================================

  /** ABS `set[a, b, ..]`. */
  def set[A](elems: A*): AbsSet[A] = AbsSet.fromIterable(elems)

  /** ABS `set(l)` with a list argument. */
  def setFromList[A](l: List[A]): AbsSet[A] = AbsSet.fromIterable(l)

  def contains[A](s: AbsSet[A], e: A): Boolean = s.contains(e)
  def emptySet[A](s: AbsSet[A]): Boolean = s.isEmpty
  def size[A](s: AbsSet[A]): AbsInt = AbsInt(s.size)

  /** ABS `elements`: the elements in ascending order. */
  def elements[A](s: AbsSet[A]): List[A] = s.toList

  def union[A](s1: AbsSet[A], s2: AbsSet[A]): AbsSet[A] = s1.union(s2)
  def intersection[A](s1: AbsSet[A], s2: AbsSet[A]): AbsSet[A] = s1.intersect(s2)
  def difference[A](s1: AbsSet[A], s2: AbsSet[A]): AbsSet[A] = s1.diff(s2)

  /** ABS `isSubset(maybe_subset, set)`. */
  def isSubset[A](maybeSubset: AbsSet[A], set: AbsSet[A]): Boolean = maybeSubset.subsetOf(set)

  def insertElement[A](s: AbsSet[A], e: A): AbsSet[A] = s.incl(e)
  def remove[A](s: AbsSet[A], e: A): AbsSet[A] = s.excl(e)

  /** ABS `take`: the smallest element; [[PatternMatchFailException]] on an empty set. */
  def take[A](s: AbsSet[A]): A = s.min

  def takeMaybe[A](s: AbsSet[A]): Maybe[A] = if (s.isEmpty) Nothing else Just(s.min)

  def hasNext[A](s: AbsSet[A]): Boolean = s.nonEmpty

  /** ABS `next(s)`: `Pair(rest, smallest)`; [[PatternMatchFailException]] on an empty set. */
  def next[A](s: AbsSet[A]): Pair[AbsSet[A], A] = {
    if (s.isEmpty) throw PatternMatchFailException("next(EmptySet): the set is empty")
    Pair(new AbsSet[A](s.tree.tail), s.tree.head.asInstanceOf[A])
  }

  // ===========================================================================================
  // Maps
  // ===========================================================================================

  /** ABS `map[Pair(k, v), ..]` (entries in order, duplicates kept). */
  def map[K, V](entries: Pair[K, V]*): AbsMap[K, V] = AbsMap.fromIterable(entries)

  /** ABS `map(l)` with a list argument. */
  def mapFromList[K, V](l: List[Pair[K, V]]): AbsMap[K, V] = AbsMap.fromIterable(l)

  def emptyMap[K, V](m: AbsMap[K, V]): Boolean = m.isEmpty
  def removeKey[K, V](m: AbsMap[K, V], k: K): AbsMap[K, V] = m.removeKey(k)
  def values[K, V](m: AbsMap[K, V]): List[V] = m.values
  def keys[K, V](m: AbsMap[K, V]): AbsSet[K] = m.keys
  def entries[K, V](m: AbsMap[K, V]): List[Pair[K, V]] = m.entries
  def lookup[K, V](m: AbsMap[K, V], k: K): Maybe[V] = m.get(k)

  /** Deprecated in abslang.abs; the same as `lookup`. */
  def lookupMaybe[K, V](m: AbsMap[K, V], k: K): Maybe[V] = m.get(k)

  /** ABS `lookupUnsafe`; [[PatternMatchFailException]] if `k` has no entry. */
  def lookupUnsafe[K, V](m: AbsMap[K, V], k: K): V = lookupUnsafe(m, k, null)

  /** `lookupUnsafe` called at `at` (an ABS `file:line:col`, or null), which a failure names. */
  def lookupUnsafe[K, V](m: AbsMap[K, V], k: K, at: String): V = m.get(k) match {
    case Just(v) => v
    case _       => throw PatternMatchFailException("lookupUnsafe(_, " + Show.show(k) + "): no such key" + (if (at == null) "" else " at " + at))
  }

  def lookupDefault[K, V](m: AbsMap[K, V], k: K, d: V): V = m.getOrElse(k, d)
  def lookupReverse[K, V](m: AbsMap[K, V], v: V): Maybe[K] = m.keyOf(v)

  def lookupReverseDefault[K, V](m: AbsMap[K, V], v: V, d: K): K = m.keyOf(v) match {
    case Just(k) => k
    case _       => d
  }

  /** ABS `insert(m, p)`: `p` becomes the first entry (an older entry for its key stays, hidden). */
  def insert[K, V](m: AbsMap[K, V], p: Pair[K, V]): AbsMap[K, V] = m.insertFirst(p)

  /** ABS `put(m, k, v)`: replaces the first entry for `k` in place, or appends one. */
  def put[K, V](m: AbsMap[K, V], k: K, v: V): AbsMap[K, V] = m.put(k, v)

  // ===========================================================================================
  // Strings and output
  // ===========================================================================================

  /** ABS `toString` (see [[Show]]). Inside class bodies emit [[absToString]]. */
  def toString(v: Any): String = Show.show(v)

  /** ABS `toString`, under a name no class member hides. */
  def absToString(v: Any): String = Show.show(v)

  def intToString(n: AbsInt): String = n.toString

  /**
   * ABS `substr(s, start, length)`, counting Unicode code points (as the Erlang backend);
   * [[PatternMatchFailException]] if the range is not inside `s`.
   */
  def substr(s: String, start: AbsInt, length: AbsInt): String = {
    def fail() = throw PatternMatchFailException(s"substr(_, $start, $length): outside a string of length ${strlen(s)}")
    if (start.signum < 0 || length.signum < 0 || !start.isLong || !length.isLong ||
        start.lv > Integer.MAX_VALUE || length.lv > Integer.MAX_VALUE) fail()
    try {
      val b = s.offsetByCodePoints(0, start.lv.toInt)
      val e = s.offsetByCodePoints(b, length.lv.toInt)
      s.substring(b, e)
    } catch { case _: IndexOutOfBoundsException => fail() }
  }

  /** ABS `strlen`: the number of Unicode code points. */
  def strlen(s: String): AbsInt = AbsInt(s.codePointCount(0, s.length))

  /** ABS `println` (buffered, see [[Out]]). */
  def println(s: String): Unit = Out.println(s)

  /** ABS `print`. */
  def print(s: String): Unit = Out.print(s)

  /** ABS `readln`: a line of standard input without surrounding white space ("" at end of input). */
  def readln(): String = AbsInput.readLine()

  // ===========================================================================================
  // Others
  // ===========================================================================================

  /** ABS `ms_since_model_start()`: milliseconds since [[ModelClock.start]] (class load, or reset). */
  def ms_since_model_start(): AbsInt = AbsInt(ModelClock.millisSinceStart())

  /** ABS `watch(v)`: a functional breakpoint; here the identity. */
  def watch[A](v: A): A = v

  /** ABS `watchEx(v, info)`: here the identity. */
  def watchEx[A, B](v: A, info: B): A = v

  // ---- Timed ABS (the clock is the runtime's simulated clock: see AbsTime) ----

  def now(): Time = AbsTime.now()

  def deadline(): Duration = AbsTime.deadline()

  def lowlevelDeadline(): AbsRat = AbsTime.lowlevelDeadline()

  /** Milliseconds of the wall clock since the epoch (the standard library's `currentms`). */
  def currentms(): AbsInt = AbsInt(System.currentTimeMillis())

  def timeValue(t: Time): AbsRat = t.timeValue

  def timeDifference(t1: Time, t2: Time): AbsRat = (t2.timeValue - t1.timeValue).abs

  def timeLessThan(t1: Time, t2: Time): Boolean = t1.timeValue < t2.timeValue

  /** ABS selector `durationValue`; [[PatternMatchFailException]] on `InfDuration`. */
  def durationValue(d: Duration): AbsRat = d match {
    case Duration.Duration(v) => v
    case _                    => throw PatternMatchFailException("durationValue(InfDuration)")
  }

  def isDurationInfinite(d: Duration): Boolean = d == InfDuration

  def addDuration(t: Time, d: Duration): Time = Time(t.timeValue + durationValue(d))

  def subtractDuration(t: Time, d: Duration): Time = Time(t.timeValue - durationValue(d))

  def durationLessThan(d1: Duration, d2: Duration): Boolean = (d1, d2) match {
    case (Duration.Duration(v1), Duration.Duration(v2)) => v1 < v2
    case (Duration.Duration(_), _)                      => true
    case _                                              => false
  }

  def subtractFromDuration(d: Duration, v: AbsRat): Duration = d match {
    case Duration.Duration(x) => Duration.Duration(x - v)
    case _                    => InfDuration
  }
}
