package cogs.absc.typecheck

import cogs.absc.ast.{CompilationUnit, Import, SomeNames}
import cogs.absc.parse.Parser

/**
 * Modules of the ABS library that are written in ABS (unlike the prelude's, whose functions the
 * runtime implements): absc checks, lowers and emits them with every program that imports from
 * them, as if the user had given them, so that a program pays for them only when it uses them.
 * Their `builtin` functions are implemented by `cogs.absc.lib` (see `LowerExp.libraryBuiltin`).
 *
 * Today that is `ABS.DC` (deployment components and cloud providers), `ABS.FLI` (the
 * foreign language interface's annotation) and `ABS.Meta` (declared only: see [[isLowered]]), in
 * `src/main/resources/cogs/absc/library/`.
 */
object Library {

  val DeploymentModule = "ABS.DC"

  /** Where a library module's source lives, as the file name in its positions. */
  def fileOf(module: String): String = s"<$module>"

  /** The foreign language interface: the `Foreign` annotation's name (no builtins). */
  val ForeignModule = "ABS.FLI"

  /**
   * Meta-programming: declared so that a model importing it compiles; every use of one of its
   * names from outside it is an error (`Checker.metaUse` says why), so it is never lowered.
   */
  val MetaModule = "ABS.Meta"

  private val Modules = List(DeploymentModule, ForeignModule, MetaModule)

  /** False for a module that is checked with the program but has no code: nothing can use it. */
  def isLowered(module: String): Boolean = module != MetaModule

  private lazy val parsed: Map[String, CompilationUnit] = Modules.map { m =>
    val resource = s"/cogs/absc/library/$m.abs"
    val in = getClass.getResourceAsStream(resource)
    if (in eq null) throw new IllegalStateException(s"absc: the library module $m is missing ($resource)")
    val text = try new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8) finally in.close()
    m -> (Parser.parse(fileOf(m), text) match {
      case Right(u) => u
      case Left(ds) => throw new IllegalStateException(s"absc: the library module $m does not parse:\n" + ds.mkString("\n"))
    })
  }.toMap

  /** The Scala object of `cogs.absc.lib` that implements a library module's `builtin` functions. */
  def nativeObject(module: String): String = module match {
    case DeploymentModule => "AbsDC"
    case other => throw new IllegalArgumentException(s"absc: $other is not a library module")
  }

  /** True if `m` is a library module written in ABS. */
  def isLibrary(module: String): Boolean = Modules.contains(module)

  /** The library units that `units` import from (directly), unless they define those modules themselves. */
  def unitsFor(units: List[CompilationUnit]): List[CompilationUnit] = {
    val defined = units.flatMap(_.modules.map(_.name)).toSet
    val wanted = units.flatMap(_.modules).flatMap(_.imports).flatMap(importedModule).toSet
    Modules.filter(m => wanted(m) && !defined(m)).map(parsed)
  }

  private def importedModule(i: Import): List[String] = i.from match {
    case Some(m) => List(m)
    case None => i.names match {
      case SomeNames(ns) => ns.flatMap(_.name.module)
      case _ => Nil
    }
  }
}
