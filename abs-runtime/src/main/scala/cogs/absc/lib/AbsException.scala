package cogs.absc.lib

/**
 * Base of ABS exceptions. In ABS, `Exception` is a data type whose constructors are declared with
 * `exception E(T x, ..);`, so an exception is data (it compares, prints and matches like data)
 * that can also be thrown. The emitter turns
 *
 * {{{
 * exception NotFound(String key);      =>  final case class NotFound(key: String) extends AbsException
 * exception Timeout;                   =>  case object Timeout extends AbsException
 * }}}
 *
 * and `catch { NotFound(k) => .. | Timeout => .. }` into a Scala `catch` with the same patterns.
 *
 * ABS exceptions are used for control flow, so they record no stack trace and allow no
 * suppressed exceptions: throwing one costs an allocation (or none, for a nullary one).
 * `getMessage` is the ABS `toString` of the value, plus [[detail]] when the library has one.
 */
abstract class AbsException extends RuntimeException(null, null, false, false) with AbsData {

  /** Where or why the library raised it (not part of the ABS value); null if nothing. */
  def detail: String = null

  override def getMessage: String = {
    val d = detail
    if (d == null) Show.show(this) else Show.show(this) + ": " + d
  }
}

object AbsException {

  /**
   * The ABS view of anything thrown while running ABS code: an [[AbsException]] as it is, and
   * JVM errors as the ABS exceptions the manual names for them (stack overflow, heap overflow,
   * null dereference, a Scala `MatchError`, integer division by zero), and the exception inside a
   * [[CreationFailed]]. Anything else is returned
   * unchanged (it is not an ABS exception and only a catch-all pattern may catch it).
   */
  def lift(t: Throwable): Throwable = t match {
    case e: AbsException                  => e
    case c: CreationFailed                => c.exception
    case t: ThrownAt                      => t.exception
    case e: java.lang.StackOverflowError  => StackOverflowException(describe(e, "stack overflow"))
    case e: java.lang.OutOfMemoryError    => HeapOverflowException(describe(e, "out of memory"))
    case e: java.lang.NullPointerException => NullPointerException(describe(e, "null dereferenced"))
    case e: scala.MatchError              => PatternMatchFailException(describe(e, "no pattern matched"))
    case e: java.lang.ArithmeticException => DivisionByZeroException(describe(e, "division by zero"))
    case other                            => other
  }

  /**
   * For a generated `catch`: the ABS exception `t` stands for, or `t` itself rethrown when it is
   * not one (a JVM failure that no ABS pattern can name propagates untouched).
   */
  def liftAbs(t: Throwable): AbsException = lift(t) match {
    case e: AbsException => e
    case other => throw other
  }

  private def describe(t: Throwable, fallback: String): String = {
    val m = try t.getMessage catch { case _: Throwable => null }
    if (m == null || m.isEmpty) fallback else m
  }
}

/**
 * A user's exception (`throw E(1);`) that left the field initialisers or the init block of an
 * object being created, with where: `where` names the class and the creator's `new` (and the
 * creators around it, when the `new` itself ran while creating another object). The value `E(1)`
 * cannot carry this itself: it is the model's data (equal to every other `E(1)`, maybe a shared
 * singleton), so the place travels in this wrapper instead. ABS code never sees the wrapper:
 * [[AbsException.lift]] unwraps it, so `catch` branches, `recover` blocks and readers of a future
 * match `E(1)` itself; only the report of an uncaught exception reads `where`. Like ABS
 * exceptions it records no stack trace.
 */
final class CreationFailed private[lib] (val exception: AbsException, val where: String)
    extends RuntimeException(null, null, false, false) {
  override def getMessage: String = exception.getMessage + ", " + where
}

/**
 * A user's exception as its `throw` statement raised it, with the statement's position
 * (`file.abs:line:col`), for the report of an uncaught failure: as [[CreationFailed]], the value
 * `E(1)` cannot carry its place itself, so the place travels in this wrapper, which ABS code never
 * sees ([[AbsException.lift]] unwraps it for `catch`, `recover` and readers of a future). One
 * allocation per `throw`; no stack trace.
 */
final class ThrownAt private[lib] (val exception: AbsException, val where: String)
    extends RuntimeException(null, null, false, false) {
  override def getMessage: String = s"${exception.getMessage} (thrown at $where)"
}

/**
 * The nullary exceptions of ABS.StdLib. Each is a singleton like any nullary constructor
 * (`throw DivisionByZeroException`, `case DivisionByZeroException =>`), and the library may also
 * throw an instance carrying a [[detail]] message (`PatternMatchFailException("head(Nil)")`) that
 * is equal to the singleton, prints the same, and matches the same patterns.
 */
sealed abstract class BuiltinAbsException private[lib] (name: String, override val detail: String) extends AbsException {
  override def productPrefix: String = name
  override def productArity: scala.Int = 0
  override def productElement(n: scala.Int): Any = throw new IndexOutOfBoundsException(n.toString)
  override def canEqual(that: Any): Boolean = that.isInstanceOf[BuiltinAbsException]
  override def equals(that: Any): Boolean = that match {
    case e: BuiltinAbsException => e.productPrefix == name
    case _                      => false
  }
  override def hashCode: scala.Int = name.hashCode

  /** The same exception with another detail (the library adds where it happened). */
  private[lib] def withDetail(d: String): BuiltinAbsException = name match {
    case "DivisionByZeroException" => DivisionByZeroException(d)
    case "AssertionFailException" => AssertionFailException(d)
    case "PatternMatchFailException" => PatternMatchFailException(d)
    case "NullPointerException" => NullPointerException(d)
    case "StackOverflowException" => StackOverflowException(d)
    case "HeapOverflowException" => HeapOverflowException(d)
    case "KeyboardInterruptException" => KeyboardInterruptException(d)
    case "ObjectDeadException" => ObjectDeadException(d)
    case _ => this
  }
}

/** Raised when the divisor is 0 in `/` or `%` of Int and Rat (and of Float through `fdiv`/`fmod`). */
class DivisionByZeroException private[lib] (detail: String) extends BuiltinAbsException("DivisionByZeroException", detail)
case object DivisionByZeroException extends DivisionByZeroException(null) {
  def apply(detail: String): DivisionByZeroException = new DivisionByZeroException(detail)
}

/** Raised by `assert e;` when `e` is False. */
class AssertionFailException private[lib] (detail: String) extends BuiltinAbsException("AssertionFailException", detail)
case object AssertionFailException extends AssertionFailException(null) {
  def apply(detail: String): AssertionFailException = new AssertionFailException(detail)
}

/** Raised when no pattern of a `case`/`switch` matches, and by partial library functions. */
class PatternMatchFailException private[lib] (detail: String) extends BuiltinAbsException("PatternMatchFailException", detail)
case object PatternMatchFailException extends PatternMatchFailException(null) {
  def apply(detail: String): PatternMatchFailException = new PatternMatchFailException(detail)
}

/** Raised by a call on `null`, and by `await`/`get` on a null future. */
class NullPointerException private[lib] (detail: String) extends BuiltinAbsException("NullPointerException", detail)
case object NullPointerException extends NullPointerException(null) {
  def apply(detail: String): NullPointerException = new NullPointerException(detail)
}

/**
 * The JVM stack overflowed. abslang.abs spells this constructor `StackOverflowEcxeption`; the
 * package object has that name as an alias, and values print as `StackOverflowException`.
 */
class StackOverflowException private[lib] (detail: String) extends BuiltinAbsException("StackOverflowException", detail)
case object StackOverflowException extends StackOverflowException(null) {
  def apply(detail: String): StackOverflowException = new StackOverflowException(detail)
}

/** The JVM ran out of heap. */
class HeapOverflowException private[lib] (detail: String) extends BuiltinAbsException("HeapOverflowException", detail)
case object HeapOverflowException extends HeapOverflowException(null) {
  def apply(detail: String): HeapOverflowException = new HeapOverflowException(detail)
}

/** The program was interrupted by the user. */
class KeyboardInterruptException private[lib] (detail: String) extends BuiltinAbsException("KeyboardInterruptException", detail)
case object KeyboardInterruptException extends KeyboardInterruptException(null) {
  def apply(detail: String): KeyboardInterruptException = new KeyboardInterruptException(detail)
}

/** A method was called on a dead (crashed) object. */
class ObjectDeadException private[lib] (detail: String) extends BuiltinAbsException("ObjectDeadException", detail)
case object ObjectDeadException extends ObjectDeadException(null) {
  def apply(detail: String): ObjectDeadException = new ObjectDeadException(detail)
}
