package cogs.absc.driver

import cogs.absc.run.ProgramRunner

import cogs.absc.emit.EmittedFile
import cogs.absc.lib.Out
import cogs.absc.diag.Diagnostic
import cogs.absc.parse.Parser
import cogs.absc.spl.Flatten
import cogs.absc.typecheck.TypeChecker
import java.io.{ByteArrayOutputStream, PrintStream}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{DynamicTest, TestFactory}
import scala.jdk.CollectionConverters._

/**
 * The end-to-end test of absc: every program of the corpus (src/test/abs/run, see its README)
 * and of examples/abs is parsed, checked, emitted, compiled and run, and its result compared
 * with what the corpus expects: `testresult` True, the exact stdout of `NAME.out`, or the exit
 * status and stderr fragment of `NAME.fail`.
 *
 * To keep the build fast all programs are compiled in one scalac run: each is emitted into a
 * package of its own (`corpus.p12`). One dynamic test per program, so Surefire counts them.
 *
 * A product line (`spl/`) is run once for its core (`NAME.out`) and once for each product P
 * that has an expected output `NAME.P.out`: flattened for P (cogs.absc.spl.Flatten), then as
 * any other program.
 */
class CorpusRunTest {
  private val root = Paths.get("src/test/abs/run")
  private val examples = Paths.get("../examples/abs")

  /** Programs the checker must reject, with the "not supported yet" message it must give. */
  private val knownUnsupported = Map.empty[String, String]

  private case class Program(name: String, file: Path, pkg: String, emitted: Either[String, List[EmittedFile]], mainObject: Option[String],
      product: Option[String] = None)

  /** The products of a product line that have an expected output `NAME.P.out` next to it. */
  private def productsOf(f: Path): List[String] = {
    val base = f.getFileName.toString.stripSuffix(".abs")
    val s = Files.list(f.getParent)
    try s.iterator.asScala.map(_.getFileName.toString).collect {
      case n if n.startsWith(base + ".") && n.endsWith(".out") && n.count(_ == '.') == 2 => n.stripPrefix(base + ".").stripSuffix(".out")
    }.toList.sorted
    finally s.close()
  }

  @TestFactory
  def corpus(): java.util.List[DynamicTest] = {
    val files = (Files.walk(root).iterator().asScala ++ Files.walk(examples).iterator().asScala)
      .filter(_.toString.endsWith(".abs")).toList.sortBy(_.toString)
    assertTrue(files.size >= 200, s"the corpus has ${files.size} programs")

    val runs = files.flatMap(f => (None :: productsOf(f).map(Some(_))).map(p => (f, p)))
    val programs = runs.zipWithIndex.map { case ((f, product), i) =>
      val file = if (f.startsWith(root)) root.relativize(f).toString else "examples/" + examples.relativize(f)
      val name = product.fold(file)(p => s"$file -p $p")
      val text = new String(Files.readAllBytes(f), UTF_8)
      val pkg = s"corpus.p$i"
      val emitted = Parser.parse(f.toString, text).flatMap(u => Flatten.flatten(List(u), product).left.map {
        case Flatten.Errors(ds) => ds
        case Flatten.NoSuchProduct(m) => List(Diagnostic.error(cogs.absc.ast.Pos(f.toString, 1, 1), m))
      }) match {
        case Left(ds) => Left(ds.map(_.render(text)).mkString("\n"))
        case Right(units) => TypeChecker.check(units) match {
          case Left(ds) => Left(ds.filter(_.isError).map(_.render(text)).mkString("\n"))
          case Right(typed) =>
            val e = Pipeline.translate(typed, pkg)
            Right((e.files.map(g => EmittedFile(s"p$i/${g.relativePath}", g.text)), e.mainObject))
        }
      }
      Program(name, f, pkg, emitted.map(_._1), emitted.toOption.flatMap(_._2), product)
    }

    // One scalac run for the whole corpus.
    val out = Files.createTempDirectory("absc-corpus")
    val sources = programs.flatMap(_.emitted.getOrElse(Nil))
    val errors = ScalaCompiler.compile(sources, System.getProperty("java.class.path"), out)
    val failedFiles = errors.map(_.file).toSet
    val loader = new java.net.URLClassLoader("absc-corpus", Array(out.toUri.toURL), getClass.getClassLoader)

    programs.map { p =>
      DynamicTest.dynamicTest(p.name, () => {
        p.emitted match {
          case Left(diagnostics) =>
            knownUnsupported.get(p.name) match {
              case Some(msg) => assertTrue(diagnostics.contains(msg), diagnostics)
              case None => fail(s"absc rejected ${p.name}:\n$diagnostics")
            }
          case Right(files) =>
            val mine = errors.filter(e => files.exists(f => e.file.endsWith(f.relativePath.split('/').last) && e.file.contains(s"p${p.pkg.stripPrefix("corpus.p")}")))
            assertTrue(mine.isEmpty, s"generated Scala does not compile:\n${mine.map(_.render).mkString("\n")}")
            assertTrue(!failedFiles.exists(_.contains(s"/p${p.pkg.stripPrefix("corpus.p")}/")), "generated Scala does not compile")
            check(p, loader)
        }
      })
    }.asJava
  }

  private def check(p: Program, loader: ClassLoader): Unit = {
    val report = new ByteArrayOutputStream
    val session = new ProgramRunner.Session(false, new PrintStream(report, true, UTF_8))
    var outcome: ProgramRunner.Outcome = null
    val output = Out.capture {
      val t = new Thread(() => {
        outcome = ProgramRunner.withSession(session) {
          val m = Class.forName(p.mainObject.get, true, loader).getMethod("main", classOf[Array[String]])
          m.invoke(null, Array.empty[String])
          session.outcome
        }
      }, s"corpus-${p.name}")
      t.setDaemon(true)
      t.start()
      t.join(60000)
      assertFalse(t.isAlive, s"${p.name} did not finish in 60 s")
    }
    val stderr = report.toString(UTF_8)
    val base = p.file.toString.stripSuffix(".abs")
    val failSpec = Paths.get(base + ".fail")
    val outSpec = Paths.get(base + p.product.fold("")("." + _) + ".out")
    if (Files.exists(failSpec)) {
      val lines = Files.readAllLines(failSpec, UTF_8).asScala.toList
      assertEquals(lines.head.trim.toInt, outcome.status, s"exit status; stderr:\n$stderr")
      lines.drop(1).headOption.filter(_.trim.nonEmpty).foreach(frag =>
        assertTrue(stderr.contains(frag.trim) || outcome.failure.exists(_.contains(frag.trim)), s"stderr should mention '$frag':\n$stderr"))
    } else {
      assertEquals(0, outcome.status, s"the program failed:\n$stderr")
      if (Files.exists(outSpec)) assertEquals(new String(Files.readAllBytes(outSpec), UTF_8), output, "stdout")
      outcome.testResult.foreach(r => assertTrue(r, s"testresult is False; output:\n$output"))
      if (outcome.testResult.isEmpty) assertTrue(Files.exists(outSpec), "a program with neither testresult nor .out checks nothing")
    }
  }
}
