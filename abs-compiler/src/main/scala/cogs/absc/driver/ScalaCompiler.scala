package cogs.absc.driver

import cogs.absc.emit.EmittedFile

import java.nio.file.{Files, Path}

import scala.reflect.internal.util.BatchSourceFile
import scala.tools.nsc.{Global, Settings}
import scala.tools.nsc.reporters.StoreReporter

/** An error of scalac in generated code: where, what, and the offending line. */
final case class ScalacError(file: String, line: Int, col: Int, message: String, lineText: String) {

  /** `file:line:col: error: message`, the line and a caret: the format of absc's own diagnostics. */
  def render: String = {
    val header = if (line > 0) s"$file:$line:$col: error: $message" else s"$file: error: $message"
    if (line > 0 && lineText.nonEmpty) s"$header\n$lineText\n${" " * math.max(0, col - 1)}^" else header
  }
}

/**
 * The Scala compiler inside absc: compiles generated sources, held in memory, to class files in a
 * directory. A fresh `Global` per compilation (a few hundred milliseconds on a warm JVM; the
 * compiler's own classes stay loaded), run on a thread with a large stack, since scalac recurses
 * over deeply nested expressions.
 */
object ScalaCompiler {

  /**
   * Options for generated code. Warnings are off: they would be about absc's output, not about
   * the model. `-Ydelambdafy:inline`: the closures of generated code become classes of their own
   * instead of serializable lambdas, which every start would spin again (neither JDK 17's
   * class-data archive nor JDK 25's AOT cache keeps lambdas made by
   * `LambdaMetafactory.altMetafactory`, which Scala 2.13 uses); classes are archived with the rest
   * of the program. Part of the cache key (see [[ClassCache]]).
   */
  val Options: List[String] = List("-nowarn", "-encoding", "UTF-8", "-Ydelambdafy:inline")

  private val StackBytes = 256L << 20

  /**
   * Compiles `files` against `classpath` (entries separated by the platform's path separator)
   * into `outDir`, which must exist. Returns the errors, or `Nil` on success. A crash of the
   * compiler itself is returned as an error without a position.
   */
  def compile(files: List[EmittedFile], classpath: String, outDir: Path): List[ScalacError] = {
    var result: List[ScalacError] = null
    var crash: Throwable = null
    val worker = new Thread(null, () => {
      try result = compileHere(files, classpath, outDir)
      catch { case e: Throwable => crash = e }
    }, "absc-scalac", StackBytes)
    worker.start()
    worker.join()
    if (crash ne null) List(ScalacError("scalac", 0, 0, s"the Scala compiler crashed: $crash", ""))
    else result
  }

  private def compileHere(files: List[EmittedFile], classpath: String, outDir: Path): List[ScalacError] = {
    val settingErrors = List.newBuilder[String]
    val settings = new Settings(msg => settingErrors += msg)
    val (ok, rest) = settings.processArguments(Options, processAll = true)
    if (!ok || rest.nonEmpty) throw new IllegalArgumentException(s"bad scalac options $Options: ${settingErrors.result()}")
    settings.usejavacp.value = false
    settings.classpath.value = classpath
    settings.outdir.value = outDir.toString
    val problems = settingErrors.result()
    if (problems.nonEmpty) return problems.map(m => ScalacError("scalac", 0, 0, m, ""))

    Files.createDirectories(outDir)
    val reporter = new StoreReporter(settings)
    val global = new Global(settings, reporter)
    try {
      val run = new global.Run
      run.compileSources(files.map(f => new BatchSourceFile(f.relativePath, f.text)))
      reporter.infos.toList.filter(_.severity == reporter.ERROR).map { info =>
        val pos = info.pos
        if (pos.isDefined)
          ScalacError(pos.source.path, pos.line, pos.column, info.msg, pos.lineContent)
        else ScalacError("scalac", 0, 0, info.msg, "")
      }
    } finally global.close()
  }
}
