package cogs.absc.driver

import cogs.absc.ast.CompilationUnit
import cogs.absc.diag.Diagnostic
import cogs.absc.emit.{EmittedProgram, ScalaEmitter}
import cogs.absc.lower.{Instrument, Instrumentation, IrPrinter, LProgram, Limits, Lower, LowerError, Optimise, Frames}
import cogs.absc.typecheck.{TypeChecker, TypedProgram, TypedSummary}

/**
 * absc's own back end: `TypeChecker.check`, then the translation as phases of their own: `lower`
 * (with the given instrumentation, into package `pkg`) to the IR, the IR-to-IR passes, `print`.
 */
class AbsBackendWith(instrumentation: Instrumentation, pkg: String = ScalaEmitter.DefaultPackage) extends Backend {
  type Checked = TypedProgram

  def typecheck(units: List[CompilationUnit]): Either[List[Diagnostic], (TypedProgram, List[Diagnostic])] =
    TypeChecker.check(units).map(p => (p, p.warnings))

  override def describe(program: TypedProgram): String = TypedSummary(program)

  private def ir(name: String, does: String, pass: LProgram => LProgram) =
    new Phase[LProgram, LProgram](name, does, p => Right(AbsBackend.onLargeStack(pass(p))), IrPrinter.apply)

  val lower: Phase[CheckedProgram[TypedProgram], LProgram] =
    new Phase[CheckedProgram[TypedProgram], LProgram]("lower", "the checked program to the IR (lower.LProgram): Scala-level expressions, statements and computations, every name chosen", { c =>
      val sessionErrors = SessionCheck(c.program, instrumentation.sessions)
      if (sessionErrors.nonEmpty) Left(Stop.Diagnostics(sessionErrors))
      else
        try Right(AbsBackend.onLargeStack(Lower(c.program, pkg, c.mainModule)))
        catch { case e: LowerError => Left(Stop.Diagnostics(List(Diagnostic.error(e.pos, e.getMessage)))) }
    }, IrPrinter.apply)

  val instrument: Phase[LProgram, LProgram] =
    ir("instrument", "IR pass: every call site to plain code, traced for the monitor or checked against a session protocol where the configuration asks", Instrument(_, instrumentation))

  val limits: Phase[LProgram, LProgram] =
    ir("limits", "IR pass: keeps every JVM method under 64 KB of code and every constant under 64 KB", Limits.apply)

  val optimise: Phase[LProgram, LProgram] =
    ir("optimise", "IR pass: value dropping (no .void where a value is dropped) and map fusion (.map for a continuation that only computes the result)", Optimise.apply)

  val frames: Phase[LProgram, LProgram] =
    ir("frames", "IR pass: every method that may suspend in the runtime's frame form (plain code up to a scheduling point, then one frame), its Proc faces calls of it as data", Frames.apply)

  val print: Phase[LProgram, EmittedProgram] =
    new Phase[LProgram, EmittedProgram]("print", "the IR laid out as Scala source files, with their line tables",
      p => Right(AbsBackend.onLargeStack(ScalaEmitter.print(p))), Pipeline.showEmitted)

  override val translation: Phases[CheckedProgram[TypedProgram], EmittedProgram] =
    Phases(lower) andThen instrument andThen limits andThen optimise andThen frames andThen print

  def emit(program: TypedProgram, mainModule: Option[String]): Either[List[Diagnostic], EmittedProgram] =
    translation.run(CheckedProgram(program, program.warnings, program.units, mainModule)).left.map {
      case Stop.Diagnostics(ds) => ds
      case Stop.Refused(message) => throw new IllegalStateException(message) // no phase of the translation refuses
    }
}

/** absc's phases without monitoring. */
object AbsBackend extends AbsBackendWith(Instrumentation.Off) {

  /**
   * Lowering, the IR passes and printing recurse over expressions as the parser and the type
   * checker do, so they run on a thread with the same large stack (reserved, not committed, until
   * used): an expression 10,000 deep that was checked must also be translated.
   */
  private[driver] def onLargeStack[A](body: => A): A = {
    var result: Either[Throwable, A] = null
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
