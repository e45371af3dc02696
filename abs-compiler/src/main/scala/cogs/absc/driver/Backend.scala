package cogs.absc.driver

import cogs.absc.ast.CompilationUnit
import cogs.absc.diag.Diagnostic
import cogs.absc.emit.EmittedProgram

/**
 * The phases between the parser and scalac: type checking, then lowering and emission of Scala.
 * The driver times them separately. [[AbsBackend]] is the real one; the tests plug in
 * hand-written translations. What the emitted program must contain: see [[ProgramRunner]].
 */
trait Backend {

  /** The checked program, handed from [[typecheck]] to [[emit]]. */
  type Checked

  /** Type-checks parsed units: the errors (and warnings) or the program and its warnings. */
  def typecheck(units: List[CompilationUnit]): Either[List[Diagnostic], (Checked, List[Diagnostic])]

  /**
   * Lowers and emits a checked program whose entry point is the main block of `mainModule` (the
   * driver has checked that it has one); errors are constructs that cannot be translated yet.
   */
  def emit(program: Checked, mainModule: Option[String]): Either[List[Diagnostic], EmittedProgram]
}
