package cogs.absc.driver

import cogs.absc.diag.Diagnostic

/**
 * One phase of absc: its name (for `absc dump --after NAME` and `-v`'s timings), what it does in a
 * few words, a function from one plain value to the next, and how its value is shown to a reader.
 */
final class Phase[A, B](val name: String, val does: String, val run: A => Either[Stop, B], val show: B => String)

/** Why a phase gave no value: diagnostics at the model's positions, or a one-line reason. */
sealed trait Stop extends Product with Serializable
object Stop {
  /** Errors (and any warnings) at positions of the model or its configuration. */
  final case class Diagnostics(diagnostics: List[Diagnostic]) extends Stop
  /** A reason that is no position's (`--main-module X: there is no module X`), printed as `absc: reason`. */
  final case class Refused(message: String) extends Stop
}

/**
 * Phases in order, each taking the value the one before gives. Built only from one phase and
 * [[andThen]] / [[++]], so the value types line up; running a prefix (for `dump --after`) can
 * then rely on them although the list itself forgets them.
 */
final class Phases[A, B] private (val all: Vector[Phase[_, _]]) {
  def andThen[C](p: Phase[B, C]): Phases[A, C] = new Phases(all :+ p)
  def ++[C](more: Phases[B, C]): Phases[A, C] = new Phases(all ++ more.all)

  def names: List[String] = all.map(_.name).toList

  /**
   * Runs the phases up to `last` (included; None: all), each through `step` (which may time it
   * or print what it found), and gives the last value with the phase that made it.
   */
  def runUntil(input: A, last: Option[String], step: (Phase[_, _], () => Either[Stop, Any]) => Either[Stop, Any] = (_, r) => r())
      : Either[Stop, (Phase[_, _], Any)] = {
    require(last.forall(names.contains), s"no phase ${last.get}")
    runAll(last.fold(all)(n => all.take(all.indexWhere(_.name == n) + 1)), input, step)
  }

  /** The phases after `after` to the last, from a value `after` made; the last value. */
  def runFrom(after: String, value: Any): Either[Stop, Any] = {
    require(names.contains(after), s"no phase $after")
    runAll(all.drop(all.indexWhere(_.name == after) + 1), value, (_, r) => r()).map(_._2)
  }

  private def runAll(phases: Vector[Phase[_, _]], input: Any, step: (Phase[_, _], () => Either[Stop, Any]) => Either[Stop, Any])
      : Either[Stop, (Phase[_, _], Any)] = {
    var value: Any = input
    val it = phases.iterator
    while (it.hasNext) {
      val p = it.next().asInstanceOf[Phase[Any, Any]]
      step(p, () => p.run(value)) match {
        case Left(stop) => return Left(stop)
        case Right(v) => value = v
      }
    }
    Right((phases.last, value))
  }

  /** All the phases. */
  def run(input: A, step: (Phase[_, _], () => Either[Stop, Any]) => Either[Stop, Any] = (_, r) => r()): Either[Stop, B] =
    runUntil(input, None, step).map(_._2.asInstanceOf[B])

  /** `p`'s value shown, for a value `p` made. */
  def show(p: Phase[_, _], value: Any): String = p.asInstanceOf[Phase[Any, Any]].show(value)
}

object Phases {
  def apply[A, B](first: Phase[A, B]): Phases[A, B] = new Phases(Vector(first))
}
