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
    else onLargeStack {
      try Right(ScalaEmitter.print(Lower(program, ScalaEmitter.DefaultPackage, instrumentation, mainModule)))
      catch { case e: LowerError => Left(List(Diagnostic.error(e.pos, e.getMessage))) }
    }
  }

  /**
   * Lowering and printing recurse over expressions as the parser and the type checker do, so they
   * run on a thread with the same large stack (reserved, not committed, until used): an
   * expression 10,000 deep that was checked must also be translated.
   */
  private def onLargeStack(body: => Either[List[Diagnostic], EmittedProgram]): Either[List[Diagnostic], EmittedProgram] = {
    var result: Either[Throwable, Either[List[Diagnostic], EmittedProgram]] = null
    val worker = new Thread(null, () => {
      result =
        try Right(body)
        catch { case e: Throwable => Left(e) }
    }, "absc-lower", 256L << 20)
    worker.start()
    worker.join()
    result.fold(e => throw e, identity)
  }
}

/** absc's phases without monitoring. */
object AbsBackend extends AbsBackendWith(Instrumentation.Off)
