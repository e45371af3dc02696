package cogs.absc.typecheck

import cogs.absc.ast.{CompilationUnit, Pos}
import cogs.absc.diag.Diagnostic

/**
 * Name resolution and type checking of core ABS.
 *
 * {{{
 * val units = files.map { case (name, text) => Parser.parse(name, text) } // all Right
 * TypeChecker.check(units) match {
 *   case Right(program) => program.warnings.foreach(println); emit(program)
 *   case Left(diagnostics) => diagnostics.foreach(d => println(d.render(textOf(d.pos.file))))
 * }
 * }}}
 *
 * The units form one program: modules may import from modules of other units. The
 * standard library (module `ABS.StdLib`, see [[Prelude]]) is added, and so are the library
 * modules written in ABS that the units import ([[Library]]: `ABS.DC`). On failure the list
 * holds every error found (independent errors are all reported, each once) and the
 * warnings, sorted by file (in the order given) and position; on success the
 * [[TypedProgram]] carries the warnings.
 *
 * The checker recurses over the trees, so it runs on a thread of its own with a large
 * stack (reserved, not committed, until used), as the parser does: a sum of thousands of
 * terms or a long else-if chain must not overflow the caller's stack.
 */
object TypeChecker {

  private val StackBytes = 256L << 20

  def check(units: List[CompilationUnit]): Either[List[Diagnostic], TypedProgram] = {
    var result: Either[Throwable, Either[List[Diagnostic], TypedProgram]] = null
    val worker = new Thread(null, () => {
      result =
        try Right(new Checker(units ++ Library.unitsFor(units)).run())
        catch {
          case _: StackOverflowError =>
            val where = units.headOption.map(u => Pos(u.file, 1, 1)).getOrElse(Pos.Unknown)
            Right(Left(List(Diagnostic.error(where, "the program is nested too deeply to be checked"))))
          case e: Throwable => Left(e)
        }
    }, "absc-typecheck", StackBytes)
    worker.start()
    worker.join()
    result.fold(e => throw e, identity)
  }
}
