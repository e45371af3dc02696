package cogs.absc.driver

import cogs.absc.ast.CompilationUnit
import cogs.absc.diag.Diagnostic
import cogs.absc.emit.{EmittedProgram, ScalaEmitter}
import cogs.absc.lower.{Instrumentation, Lower, LowerError}
import cogs.absc.typecheck.{TypeChecker, TypedProgram}

/** absc's own phases: `TypeChecker.check`, then `Lower` with the given instrumentation and `ScalaEmitter.print`. */
class AbsBackendWith(instrumentation: Instrumentation) extends Backend {
  type Checked = TypedProgram

  def typecheck(units: List[CompilationUnit]): Either[List[Diagnostic], (TypedProgram, List[Diagnostic])] =
    TypeChecker.check(units).map(p => (p, p.warnings))

  def emit(program: TypedProgram, mainModule: Option[String]): Either[List[Diagnostic], EmittedProgram] = {
    val sessionErrors = SessionCheck(program, instrumentation.sessions)
    if (sessionErrors.nonEmpty) Left(sessionErrors)
    else
      try Right(ScalaEmitter.print(Lower(program, ScalaEmitter.DefaultPackage, instrumentation, mainModule)))
      catch { case e: LowerError => Left(List(Diagnostic.error(e.pos, e.getMessage))) }
  }
}

/** absc's phases without monitoring. */
object AbsBackend extends AbsBackendWith(Instrumentation.Off)
