package cogs.absc.driver

import cogs.absc.ast.CompilationUnit
import cogs.absc.diag.Diagnostic
import cogs.absc.emit.{EmittedProgram, ScalaEmitter}
import cogs.absc.lower.{Instrumentation, LowerError}
import cogs.absc.typecheck.{TypeChecker, TypedProgram}

/** absc's own phases: `TypeChecker.check`, then `ScalaEmitter.emit` with the given instrumentation. */
class AbsBackendWith(instrumentation: Instrumentation) extends Backend {

  /** A checked program, already translated: constructs the emitter cannot translate yet are reported as ABS errors here, not later. */
  final case class Checked(program: TypedProgram, emitted: EmittedProgram)

  def typecheck(units: List[CompilationUnit]): Either[List[Diagnostic], (Checked, List[Diagnostic])] =
    TypeChecker.check(units).flatMap { p =>
      try Right((Checked(p, ScalaEmitter.emit(p, instrumentation)), p.warnings))
      catch { case e: LowerError => Left(p.warnings :+ Diagnostic.error(e.pos, e.getMessage)) }
    }

  def emit(checked: Checked): Generated =
    Generated(checked.emitted.files.map(f => GeneratedFile(f.relativePath, f.text)), checked.emitted.mainObject)
}

/** absc's phases without monitoring. */
object AbsBackend extends AbsBackendWith(Instrumentation.Off)
