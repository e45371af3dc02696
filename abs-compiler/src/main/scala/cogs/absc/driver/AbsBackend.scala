package cogs.absc.driver

import cogs.absc.ast.CompilationUnit
import cogs.absc.diag.Diagnostic
import cogs.absc.emit.ScalaEmitter
import cogs.absc.typecheck.{TypeChecker, TypedProgram}

/** absc's own phases: `TypeChecker.check`, then `ScalaEmitter.emit`. */
object AbsBackend extends Backend {

  type Checked = TypedProgram

  def typecheck(units: List[CompilationUnit]): Either[List[Diagnostic], (TypedProgram, List[Diagnostic])] =
    TypeChecker.check(units).map(p => (p, p.warnings))

  def emit(program: TypedProgram): Generated = {
    val emitted = ScalaEmitter.emit(program)
    Generated(emitted.files.map(f => GeneratedFile(f.relativePath, f.text)), emitted.mainObject)
  }
}
