package cogs.absc.driver

import cogs.absc.ast.CompilationUnit
import cogs.absc.diag.Diagnostic
import cogs.absc.emit.EmittedProgram

/**
 * The phases between the parser and scalac: type checking, then the translation to Scala.
 * [[AbsBackend]] is the real one (its translation is lowering, the IR passes and printing, see
 * [[Pipeline]]); the tests plug in hand-written translations. What the emitted program must
 * contain: see [[cogs.absc.run.ProgramRunner]].
 */
trait Backend {

  /** The checked program, handed from [[typecheck]] to the translation. */
  type Checked

  /** Type-checks parsed units: the errors (and warnings) or the program and its warnings. */
  def typecheck(units: List[CompilationUnit]): Either[List[Diagnostic], (Checked, List[Diagnostic])]

  /**
   * Translates a checked program whose entry point is the main block of `mainModule` (chosen by
   * the pipeline's `entry` phase); errors are constructs that cannot be translated yet.
   */
  def emit(program: Checked, mainModule: Option[String]): Either[List[Diagnostic], EmittedProgram]

  /** The phases from the checked program to Scala; by default one, [[emit]]. */
  def translation: Phases[CheckedProgram[Checked], EmittedProgram] =
    Phases(new Phase[CheckedProgram[Checked], EmittedProgram]("emit", "the checked program as Scala",
      c => emit(c.program, c.mainModule).left.map(Stop.Diagnostics), Pipeline.showEmitted))

  /** The checked program as a reader sees it in `absc dump --after check`. */
  def describe(program: Checked): String = program.toString
}

/**
 * A checked program on its way to Scala: the back end's checked value, its warnings, the units
 * it was checked from, and the module whose main block is the program's entry point (None until
 * the `entry` phase chose it, and when no module has one).
 */
final case class CheckedProgram[C](program: C, warnings: List[Diagnostic], units: List[CompilationUnit],
    mainModule: Option[String] = None)
