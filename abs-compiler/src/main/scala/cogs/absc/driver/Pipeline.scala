package cogs.absc.driver

import cogs.absc.ast.{AbsPrinter, CompilationUnit}
import cogs.absc.emit.{EmittedProgram, ScalaEmitter}
import cogs.absc.lower.Instrumentation
import cogs.absc.parse.Parser
import cogs.absc.spl.Flatten
import cogs.absc.typecheck.TypedProgram

/**
 * absc's phases, listed in one place ([[phases]]); every command that builds a program (`run`,
 * `compile`, `test`, `package`, `explore`, the compiler JVM and the compile server, which run
 * `build-into`) goes through the driver, which runs this list, and `absc dump --after NAME`
 * shows the value of any of them:
 *
 * {{{
 *   parse    List[SourceFile]        -> List[CompilationUnit]   (the AST)
 *   flatten  List[CompilationUnit]   -> List[CompilationUnit]   (the core, or the product of -p)
 *   check    List[CompilationUnit]   -> CheckedProgram          (TypedProgram: types, names, effects)
 *   entry    CheckedProgram          -> CheckedProgram          (the module whose main block runs)
 *   then the back end's translation: absc's own is
 *   lower      CheckedProgram        -> LProgram              (the IR; call sites as data)
 *   instrument LProgram              -> LProgram              (IR pass: call sites to code, traced or checked as configured)
 *   limits   LProgram                -> LProgram                (IR pass: the JVM's class-file limits)
 *   optimise LProgram                -> LProgram                (IR pass: value dropping, map fusion)
 *   print    LProgram                -> EmittedProgram          (Scala text and line tables)
 * }}}
 *
 * Each phase is a function of its input and the options given here, and nothing else.
 */
final class Pipeline(val backend: Backend, options: ProgramOptions) {

  val parse: Phase[List[SourceFile], List[CompilationUnit]] =
    new Phase[List[SourceFile], List[CompilationUnit]]("parse", "ABS text to the AST (ast.CompilationUnit), one unit per file", { sources =>
      val parsed = sources.map(s => Parser.parse(s.name, s.text))
      val errors = parsed.flatMap(_.left.getOrElse(Nil))
      if (errors.nonEmpty) Left(Stop.Diagnostics(errors)) else Right(parsed.flatMap(_.toOption))
    }, Pipeline.showUnits)

  val flatten: Phase[List[CompilationUnit], List[CompilationUnit]] =
    new Phase[List[CompilationUnit], List[CompilationUnit]]("flatten", "a product line to the core program, or to the product of -p (a program without one: unchanged)",
      units => Flatten.flatten(units, options.product).left.map {
        case Flatten.Errors(ds) => Stop.Diagnostics(ds)
        case Flatten.NoSuchProduct(message) => Stop.Refused(message)
      }, Pipeline.showUnits)

  val check: Phase[List[CompilationUnit], CheckedProgram[backend.Checked]] =
    new Phase[List[CompilationUnit], CheckedProgram[backend.Checked]]("check", "names resolved, types checked, effects analysed (typecheck.TypedProgram)",
      units => backend.typecheck(units) match {
        case Left(ds) => Left(Stop.Diagnostics(ds))
        case Right((checked, warnings)) => Right(CheckedProgram(checked, warnings, units))
      }, c => backend.describe(c.program))

  val entry: Phase[CheckedProgram[backend.Checked], CheckedProgram[backend.Checked]] =
    new Phase[CheckedProgram[backend.Checked], CheckedProgram[backend.Checked]]("entry", "chooses the module whose main block the program runs (--main-module, or the only one)",
      c => Pipeline.mainModule(c.units, options.mainModule, options.mainModuleOption)
        .fold(m => Left(Stop.Refused(m)), m => Right(c.copy(mainModule = m))),
      c => backend.describe(c.program) +
        s"// entry: ${c.mainModule.fold("none (no module has a main block)")(m => s"the main block of module $m")}\n")

  /** Every phase, in order. */
  val phases: Phases[List[SourceFile], EmittedProgram] =
    (Phases(parse) andThen flatten andThen check andThen entry) ++ backend.translation
}

object Pipeline {

  /**
   * The module whose main block is the program's entry point: the one `--main-module` names (if
   * `requested`), else the only one with a main block (None if there is none). Several without a
   * choice, or a choice that has no main block, is an error naming the candidates; `offersOption`:
   * whether the command has `--main-module`, for the hint. The one rule of absc for it.
   */
  def mainModule(units: List[CompilationUnit], requested: Option[String], offersOption: Boolean): Either[String, Option[String]] = {
    val candidates = for (u <- units; m <- u.modules; b <- m.main) yield (m.name, s"${u.file}:${b.pos.line}:${b.pos.col}")
    def listed = candidates.map { case (n, at) => s"$n ($at)" }.mkString(", ")
    requested match {
      case Some(chosen) =>
        if (candidates.exists(_._1 == chosen)) Right(Some(chosen))
        else {
          val what = if (units.exists(_.modules.exists(_.name == chosen))) s"module $chosen has no main block" else s"there is no module $chosen"
          Left(s"--main-module $chosen: $what; " +
            (if (candidates.isEmpty) "no module of the program has one" else s"modules with a main block: $listed"))
        }
      case None =>
        if (candidates.size <= 1) Right(candidates.headOption.map(_._1))
        else Left(s"${candidates.size} modules have a main block: $listed; " +
          (if (offersOption) "choose one with --main-module MODULE" else "a program may have only one"))
    }
  }

  /**
   * The phases after `check` for a program checked elsewhere (tests, tools that check many
   * programs and compile them together): `entry` without `--main-module`, then absc's translation,
   * into package `pkg`. A program it cannot translate is an IllegalArgumentException.
   */
  def translate(program: TypedProgram, pkg: String = ScalaEmitter.DefaultPackage,
      instrumentation: Instrumentation = Instrumentation.Off): EmittedProgram = {
    val p = new Pipeline(new AbsBackendWith(instrumentation, pkg), ProgramOptions())
    p.phases.runFrom("check", CheckedProgram(program, program.warnings, program.units)) match {
      case Right(emitted: EmittedProgram) => emitted
      case Right(other) => throw new IllegalStateException(s"absc: the last phase gave $other")
      case Left(Stop.Diagnostics(ds)) => throw new IllegalArgumentException(ds.map(_.header).mkString("\n"))
      case Left(Stop.Refused(message)) => throw new IllegalArgumentException(message)
    }
  }

  /** Units as ABS source (`AbsPrinter`), each after a `// FILE` line. */
  def showUnits(units: List[CompilationUnit]): String =
    units.map(u => s"// ${u.file}\n" + AbsPrinter.print(u)).mkString("\n")

  /** Each emitted file after a `// ===== PATH` line (the line tables left out). */
  def showEmitted(p: EmittedProgram): String =
    p.files.map(f => s"// ===== ${f.relativePath}\n${f.text}").mkString("\n")
}
