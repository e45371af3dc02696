package cogs.absc.driver

import java.io.File
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.nio.file.attribute.FileTime
import java.util.concurrent.{Callable, Executors, TimeUnit}
import java.util.jar.{JarEntry, JarOutputStream}

import scala.jdk.CollectionConverters._
import scala.util.Using

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterAll, Test, TestInstance}

/**
 * The launcher's fast path for cached `absc run FILE.abs` (the index [[FastRun]] writes, which the
 * `absc` script reads): the
 * real script, copied into a tree of its own whose build stamp lists jars of this test's class
 * path (directories are packed into jars first), so it never builds; a private cache
 * (XDG_CACHE_HOME). `ABSC_SHOW_COMMAND=1` makes a fast run say so on stderr; that line is the
 * only thing a test strips before comparing a fast run with the slow path.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LauncherFastPathTest {

  private val repo: Path = {
    val here = Paths.get("").toAbsolutePath
    if (Files.isRegularFile(here.resolve("absc"))) here else here.getParent
  }

  private val tmp = Files.createTempDirectory("absc-fast-")
  private val tree = tmp.resolve("tree")
  private val cache = tmp.resolve("cache")
  private val models = Files.createDirectories(tmp.resolve("models"))

  private val jars: List[Path] = {
    val dir = Files.createDirectories(tmp.resolve("jars"))
    ClassPath.entries.zipWithIndex.map { case (e, i) =>
      // Copies, so that a test may change one as a rebuild would, without touching the build's.
      if (Files.isRegularFile(e)) Files.copy(e, dir.resolve(s"$i-${e.getFileName}")) else jarOf(e, dir.resolve(s"$i-dir.jar"))
    }
  }

  locally {
    val target = Files.createDirectories(tree.resolve("abs-compiler/target"))
    Files.copy(repo.resolve("absc"), tree.resolve("absc"))
    Files.writeString(target.resolve("absc.classpath"), jars.mkString(File.pathSeparator), UTF_8)
  }

  @AfterAll def cleanUp(): Unit = ClassCache.deleteTree(tmp)

  private def jarOf(dir: Path, jar: Path): Path = {
    val files = Using.resource(Files.walk(dir))(_.iterator.asScala.filter(Files.isRegularFile(_)).toVector)
    Using.resource(new JarOutputStream(Files.newOutputStream(jar))) { out =>
      for (f <- files) {
        out.putNextEntry(new JarEntry(dir.relativize(f).toString.replace(File.separatorChar, '/')))
        Files.copy(f, out)
        out.closeEntry()
      }
    }
    jar
  }

  private final case class Ran(status: Int, out: String, err: String, fast: Boolean) {
    /**
     * stderr without the fast path's own line, with objects' hash codes made equal, and the lines
     * of a deadlock report (one per COG, in the order of a hash set: it differs from run to run,
     * on either path) sorted.
     */
    def report: String = {
      val lines = err.linesIterator.filterNot(_.startsWith("absc: fast path: ")).map(_.replaceAll("#-?\\d+", "#N")).toList
      val (cogs, rest) = lines.partition(_.startsWith("  COG of "))
      (rest ++ cogs.sorted).mkString("\n")
    }
  }

  private def absc(args: List[String], env: Map[String, String] = Map.empty): Ran = {
    val pb = new ProcessBuilder(("bash" :: tree.resolve("absc").toString :: args): _*)
    pb.directory(models.toFile)
    val e = pb.environment()
    e.put("XDG_CACHE_HOME", cache.toString)
    e.put("ABSC_SHOW_COMMAND", "1")
    e.remove("ABSC_NO_FAST")
    e.put("ABSC_NO_SERVER", "1") // the slow path's builds in the compiler JVM: no server outlives the test
    e.remove("JAVA_OPTS")
    e.put("JAVA_HOME", System.getProperty("java.home"))
    env.foreach { case (k, v) => e.put(k, v) }
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
    val id = java.util.UUID.randomUUID()
    val outFile = tmp.resolve(s"out-$id")
    val errFile = tmp.resolve(s"err-$id")
    pb.redirectOutput(outFile.toFile).redirectError(errFile.toFile)
    val p = pb.start()
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), s"absc ${args.mkString(" ")} did not end")
    val err = Files.readString(errFile, UTF_8)
    Ran(p.exitValue, Files.readString(outFile, UTF_8), err, err.linesIterator.exists(_.startsWith("absc: fast path: ")))
  }

  private def model(name: String, text: String): String = {
    Files.writeString(models.resolve(name), text, UTF_8)
    name
  }

  /** The slow path (a miss), then two fast runs (the first dumps the class-data archive), then the slow path on a hit. */
  private def sameOnBothPaths(file: String, status: Int): Ran = {
    val first = absc(List("run", file))
    assertFalse(first.fast, s"a first run cannot be fast:\n${first.err}")
    val fast1 = absc(List("run", file))
    val fast2 = absc(List("run", file))
    val slow = absc(List("run", file), Map("ABSC_NO_FAST" -> "1"))
    assertTrue(fast1.fast && fast2.fast, s"the second and third runs should take the fast path:\n${fast1.err}\n${fast2.err}")
    assertFalse(slow.fast)
    for (r <- List(first, fast1, fast2, slow)) {
      assertEquals(status, r.status, r.err)
      assertEquals(first.out, r.out)
      assertEquals(first.report, r.report)
    }
    first
  }

  @Test def aPrintingModelRunsTheSameFastAndSlow(): Unit = {
    val r = sameOnBothPaths(model("hello.abs", "module Hello;\n{ println(\"hello\"); }\n"), 0)
    assertEquals("hello\n", r.out)
    assertEquals("", r.report)
  }

  /**
   * The program's arguments reach its main class as its command line, after `--` (issue 27, item
   * 2: the program parses its command line itself), so option-like ones stay the program's.
   */
  @Test def theProgramsArgumentsStayThePrograms(): Unit = {
    val f = model("args.abs", "module Args;\n{ println(\"args\"); }\n")
    val args = List("--", "--workers", "0", "x")
    val first = absc(List("run", f) ++ args)
    val fast = absc(List("run", f) ++ args)
    assertTrue(fast.fast, fast.err)
    assertTrue(fast.err.linesIterator.exists(l => l.startsWith("absc: fast path: ") && l.endsWith(" -- --workers 0 x")), fast.err)
    for (r <- List(first, fast)) assertEquals((0, "args\n", ""), (r.status, r.out, r.report))
  }

  @Test def aFailingModelFailsTheSameWay(): Unit = {
    val r = sameOnBothPaths(model("failing.abs", "module Failing;\n{\n  println(\"before\");\n  assert False;\n}\n"), 1)
    assertEquals("before\n", r.out)
    assertTrue(r.report.contains("absc: the main block failed: uncaught exception AssertionFailException"), r.err)
  }

  @Test def aDeadlockIsReportedTheSameWay(): Unit = {
    val r = sameOnBothPaths(model("deadlock.abs",
      """module Deadlock;
        |interface I { Unit m(); }
        |class C implements I { Bool b = False; Unit m() { await b; } }
        |{ I o = new C(); Fut<Unit> f = o!m(); f.get; }
        |""".stripMargin), 1)
    assertTrue(r.report.contains("absc: deadlock:"), r.err)
  }

  @Test def anEditedSourceIsNeverServedFromTheOldEntry(): Unit = {
    val f = model("edited.abs", "module Edited;\n{ println(\"one\"); }\n")
    absc(List("run", f))
    assertTrue(absc(List("run", f)).fast)
    // Same length and the modification time put back: the status-change time (which nobody can
    // set) tells; the slow path then finds the entry by the content's digest.
    val time = Files.getLastModifiedTime(models.resolve(f))
    model(f, "module Edited;\n{ println(\"two\"); }\n")
    Files.setLastModifiedTime(models.resolve(f), time)
    val after = absc(List("run", f))
    assertFalse(after.fast, after.err)
    assertEquals("two\n", after.out)
    assertTrue(absc(List("run", f)).fast)
  }

  @Test def eachOfSeveralFilesIsCheckedInItsPlace(): Unit = {
    // An edit of the first of two files (not the one with the main block) is seen as well.
    val lib = model("two-lib.abs", "module TwoLib;\nexport *;\ndef Int two() = 2;\n")
    val main = model("two-main.abs", "module TwoMain;\nimport * from TwoLib;\n{ println(toString(two())); }\n")
    assertEquals((0, "2\n", false), { val r = absc(List("run", lib, main)); (r.status, r.out, r.fast) })
    assertEquals((0, "2\n", true), { val r = absc(List("run", lib, main)); (r.status, r.out, r.fast) })
    val time = Files.getLastModifiedTime(models.resolve(lib))
    model(lib, "module TwoLib;\nexport *;\ndef Int two() = 3;\n")
    Files.setLastModifiedTime(models.resolve(lib), time)
    val after = absc(List("run", lib, main))
    assertEquals((0, "3\n", false), (after.status, after.out, after.fast), after.err)
    assertEquals((0, "3\n", true), { val r = absc(List("run", lib, main)); (r.status, r.out, r.fast) })
  }

  @Test def optionsAndARebuiltAbscTakeTheSlowPath(): Unit = {
    val f = model("options.abs", "module Options;\n{ println(\"x\"); }\n")
    absc(List("run", f))
    assertTrue(absc(List("run", f)).fast)
    val withOption = absc(List("run", "--workers", "1", f))
    assertEquals((0, "x\n", false), (withOption.status, withOption.out, withOption.fast))
    // A jar of absc's class path with a new time, as a rebuild leaves it: the old index no longer applies.
    val jar = jars.last
    val before = Files.getLastModifiedTime(jar)
    try {
      Files.setLastModifiedTime(jar, FileTime.fromMillis(before.toMillis + 5000))
      val rebuilt = absc(List("run", f))
      assertEquals((0, "x\n", false), (rebuilt.status, rebuilt.out, rebuilt.fast))
    } finally Files.setLastModifiedTime(jar, before)
  }

  @Test def concurrentFirstRunsAgree(): Unit = {
    val f = model("race.abs", "module Race;\n{ println(\"raced\"); }\n")
    val pool = Executors.newFixedThreadPool(2)
    try {
      val runs = pool.invokeAll(List.fill(2)(new Callable[Ran] { def call(): Ran = absc(List("run", f)) }).asJava).asScala.map(_.get)
      for (r <- runs) assertEquals((0, "raced\n"), (r.status, r.out), r.err)
    } finally pool.shutdown()
    val next = absc(List("run", f))
    assertEquals((0, "raced\n", true), (next.status, next.out, next.fast), next.err)
  }

  /** The index absc wrote for a run of `file` (the one whose `check` lines name it). */
  private def indexOf(file: String): Path = {
    val dir = tree.resolve("abs-compiler/target/fast")
    val all = Using.resource(Files.list(dir))(_.iterator.asScala.toList).filterNot(_.getFileName.toString.startsWith("tmp-"))
    val mine = all.filter(f => Files.readAllLines(f, UTF_8).asScala.exists(l => l.startsWith("check ") && l.endsWith(s" $file")))
    assertEquals(1, mine.size, s"one index for $file among ${all.map(_.getFileName)}")
    mine.head
  }

  private def lines(index: Path): List[String] = Files.readAllLines(index, UTF_8).asScala.toList

  @Test def theIndexSaysWhatTheScriptChecks(): Unit = {
    val f = model("index.abs", "module Index;\n{ println(\"i\"); }\n")
    absc(List("run", f))
    val index = lines(indexOf(f))
    assertEquals(FastRun.Format, index.head)
    val checks = index.filter(_.startsWith("check ")).map(_.stripPrefix("check "))
    // One line per jar of absc's class path and per FILE, as `stat -L -c '%s %i %.9Y %.9Z %n'` prints it.
    for (name <- f :: jars.map(_.toString))
      assertTrue(checks.exists(_.matches(s"[0-9]+ [0-9]+ [0-9]+\\.[0-9]{9} [0-9]+\\.[0-9]{9} \\Q$name\\E")), s"$name in\n${index.mkString("\n")}")
    val ran = new ProcessBuilder(List("stat", "-L", "-c", "%s %i %.9Y %.9Z %n", "--") ++ checks.map(c => c.split(" ", 5)(4)): _*)
      .directory(models.toFile).start()
    val printed = new String(ran.getInputStream.readAllBytes(), UTF_8)
    assertTrue(ran.waitFor(60, TimeUnit.SECONDS))
    assertEquals(checks.mkString("", "\n", "\n"), printed, "FastRun's lines are stat's")
    assertTrue(index.contains("opt -Xss256m"), index.mkString("\n"))
  }

  @Test def aDoubtfulIndexTakesTheSlowPathWhichWritesItAgain(): Unit = {
    val f = model("doubt.abs", "module Doubt;\n{ println(\"d\"); }\n")
    absc(List("run", f))
    assertTrue(absc(List("run", f)).fast)
    val index = indexOf(f)
    val good = lines(index)
    // A size that is not the file's, a line the script does not know, another format: each is a doubt.
    val doubts = List(
      good.map(l => if (l.startsWith("check ") && l.endsWith(s" $f")) l.replaceFirst("^check [0-9]+", "check 1") else l),
      good :+ "something new",
      "absc-fast-0" :: good.tail)
    for (bad <- doubts) {
      Files.write(index, bad.asJava, UTF_8)
      val slow = absc(List("run", f))
      assertEquals((0, "d\n", false), (slow.status, slow.out, slow.fast), slow.err)
      assertEquals(good.filterNot(_.startsWith("check ")), lines(index).filterNot(_.startsWith("check ")), "written again")
      assertTrue(absc(List("run", f)).fast)
    }
    // A touch that changes nothing but the file's times: once the slow path, which finds the same entry.
    Files.setLastModifiedTime(models.resolve(f), FileTime.fromMillis(System.currentTimeMillis() + 3000))
    val touched = absc(List("run", f))
    assertEquals((0, "d\n", false), (touched.status, touched.out, touched.fast), touched.err)
    assertTrue(absc(List("run", f)).fast)
  }

  @Test def anEditOfTheSameSizeRightAwayIsSeen(): Unit = {
    // No time set back: the common case of an editor saving a one-character change.
    val f = model("quick.abs", "module Quick;\n{ println(\"a\"); }\n")
    absc(List("run", f))
    assertTrue(absc(List("run", f)).fast)
    model(f, "module Quick;\n{ println(\"b\"); }\n")
    val after = absc(List("run", f))
    assertEquals((0, "b\n", false), (after.status, after.out, after.fast), after.err)
  }

  @Test def theClassDataIsWhatTheIndexSays(): Unit = {
    val f = model("cds.abs", "module Cds;\n{ println(\"c\"); }\n")
    absc(List("run", f))
    val index = lines(indexOf(f))
    val archive = Paths.get(index.find(_.startsWith("archive ")).getOrElse(fail(s"no class-data plan:\n${index.mkString("\n")}")).stripPrefix("archive "))
    val mapped = index.filter(_.startsWith("mapped ")).map(_.stripPrefix("mapped "))
    val first = absc(List("run", f))
    assertTrue(first.fast, first.err)
    // The first fast run dumps (dynamic CDS) or records (AOT, made by a JVM in the background).
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120)
    while (!Files.exists(archive) && System.nanoTime() < deadline) Thread.sleep(200)
    assertTrue(Files.isRegularFile(archive), s"$archive made after the first fast run")
    val next = absc(List("run", f))
    val command = next.err.linesIterator.find(_.startsWith("absc: fast path: ")).getOrElse(fail(next.err))
    assertTrue(mapped.nonEmpty && mapped.forall(o => command.contains(s" $o ")), s"$command maps ${mapped.mkString(" ")}")
    assertEquals((0, "c\n"), (next.status, next.out))
    // ABSC_NO_CDS: an index of its own, without a plan, and a fast run without class data.
    val plain = Map("ABSC_NO_CDS" -> "1")
    assertFalse(absc(List("run", f), plain).fast)
    val noCds = absc(List("run", f), plain)
    assertTrue(noCds.fast, noCds.err)
    assertFalse(noCds.err.contains("-XX:SharedArchiveFile") || noCds.err.contains("-XX:AOT"), noCds.err)
  }
}
