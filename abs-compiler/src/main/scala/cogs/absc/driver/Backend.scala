package cogs.absc.driver

import cogs.absc.ast.CompilationUnit
import cogs.absc.diag.Diagnostic

/** One generated Scala source file; `relativePath` uses `/` and is relative to the output root. */
final case class GeneratedFile(relativePath: String, text: String)

/**
 * The Scala translation of a program: its files and the fully qualified name of the object whose
 * `main` runs the ABS main block (none if no module has a main block). See [[ProgramRunner]] for
 * what that object must do.
 */
final case class Generated(files: List[GeneratedFile], mainObject: Option[String])

/**
 * The phases between the parser and scalac: type checking and Scala emission. The driver times
 * them separately. [[AbsBackend]] is the real one; the tests plug in hand-written translations.
 */
trait Backend {

  /** The checked program, handed from [[typecheck]] to [[emit]]. */
  type Checked

  /** Type-checks parsed units: the errors (and warnings) or the program and its warnings. */
  def typecheck(units: List[CompilationUnit]): Either[List[Diagnostic], (Checked, List[Diagnostic])]

  def emit(program: Checked): Generated
}
