package cogs.absc.driver

import java.io.{ByteArrayOutputStream, PrintStream}
import java.net.{StandardProtocolFamily, UnixDomainSocketAddress}
import java.nio.channels.ServerSocketChannel
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.nio.file.attribute.PosixFilePermissions
import java.util.concurrent.{Callable, Executors, TimeUnit}

import scala.collection.mutable

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.{AfterEach, Test, Timeout}

import cogs.absc.lib.Out

import DriverTestSupport._

/**
 * The compile server (real JVMs, the real back end): a build that finds none builds in the
 * compiler JVM and starts one afterwards, which warms up on that model until the first request;
 * builds through it print and return what builds without it do; one server serves sequential and
 * concurrent clients; a server of another build is replaced; a killed or hung one costs nothing
 * but a message; an idle one stops. Every JVM a test starts is killed after it, whatever failed.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CompileServerTest {

  private val dir = tempDir("absc-srv-test")
  private val serverDir = dir.resolve("srv") // created by the client, 0700
  private val started = mutable.Set.empty[Long]
  private val handStarted = mutable.ListBuffer.empty[Process]

  private def javaCmd = Paths.get(System.getProperty("java.home"), "bin", "java").toString
  private val fork = CompilerJvm(javaCmd, List("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss16m"), None)

  // No warm-up builds unless a test is about them: each is a whole build, and the tests are many.
  private def settings(idle: Long = 600, answerMillis: Long = 10000, warmUps: Int = 0) =
    ServerSettings(serverDir, idle, List("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss16m"), javaCmd,
      answerMillis = answerMillis, warmUps = warmUps)

  private def client(s: ServerSettings = settings()): ServerClient = new ServerClient(s)

  @AfterEach def stopEveryJvm(): Unit = {
    val pidFiles = if (Files.isDirectory(serverDir)) Files.list(serverDir).toArray.map(_.asInstanceOf[Path])
      .filter(_.toString.endsWith(".pid")).toList else Nil
    val pids = started.toSet ++ pidFiles.flatMap(f => scala.util.Try(Files.readString(f).trim.toLong).toOption)
    for (pid <- pids; h <- toOption(ProcessHandle.of(pid))) {
      h.destroyForcibly()
      h.onExit().get(30, TimeUnit.SECONDS)
    }
    handStarted.foreach { p => p.destroyForcibly(); p.waitFor(30, TimeUnit.SECONDS) }
  }

  private def toOption[A](o: java.util.Optional[A]): Option[A] = if (o.isPresent) Some(o.get) else None

  /** `absc run --no-cache FILE` through a driver with the compiler JVM and, if given, the server. */
  private def run(server: Option[ServerClient], file: String): AbscResult = {
    val err = new ByteArrayOutputStream
    val errS = new PrintStream(err, true, UTF_8)
    val d = new Driver(AbsBackend, errS, verbose = false, Some(fork), server = server)
    var status = -1
    val out = Out.capture {
      status = d.readSources(List(file)).fold(_.status, s => d.run(s, CachePolicy.NoCache, None, Array.empty))
    }
    server.foreach(_.lastPid.foreach(started += _))
    AbscResult(status, "", err.toString(UTF_8), out)
  }

  private val hello = "module Hello;\n{\n  Int x = 6 * 7;\n  println(\"hello \" + toString(x));\n}\n"

  private def isAlive(pid: Long): Boolean = toOption(ProcessHandle.of(pid)).exists(_.isAlive)

  private def awaitExit(pid: Long): Unit =
    toOption(ProcessHandle.of(pid)).foreach(_.onExit().get(60, TimeUnit.SECONDS))

  /** The pid of the server the last build started in the background, once it answers. */
  private def awaitServer(c: ServerClient): Long = {
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120)
    var pid = c.runningPid()
    while (pid.isEmpty && System.nanoTime() < deadline) { Thread.sleep(100); pid = c.runningPid() }
    assertTrue(pid.isDefined, "a server was started after the build")
    started += pid.get
    pid.get
  }

  private def warmUpLines(c: ServerClient): List[String] =
    if (!Files.exists(c.logFile)) Nil
    else Files.readAllLines(c.logFile, UTF_8).toArray.map(_.toString).toList.filter(_.contains("warm-up build"))

  @Test def theFirstBuildStartsAServerAndTheNextOnesUseIt(): Unit = {
    val c = client()
    val f = absFile(dir, "hello", hello)
    val first = run(Some(c), f)
    assertEquals(AbscResult(0, "", "", "hello 42\n"), first, "built in the compiler JVM, silently")
    assertEquals(None, c.lastPid, "not built by a server")
    val pid = awaitServer(c)
    val second = run(Some(c), absFile(dir, "hello2", hello.replace("6 * 7", "6 * 8")))
    assertEquals(AbscResult(0, "", "", "hello 48\n"), second)
    assertEquals(Some(pid), c.lastPid, "built by the server started after the first build")
    c.lastPid = None
    assertEquals(AbscResult(0, "", "", "hello 42\n"), run(Some(c), f))
    assertEquals(Some(pid), c.lastPid, "the same server")
  }

  @Test def aNewServerWarmsUpOnTheModelThatStartedIt(): Unit = {
    val c = client(settings(warmUps = 2))
    assertEquals(0, run(Some(c), absFile(dir, "hello", hello)).status)
    awaitServer(c)
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180)
    while (warmUpLines(c).size < 2 && System.nanoTime() < deadline) Thread.sleep(200)
    val lines = warmUpLines(c)
    assertEquals(2, lines.size, lines.mkString("\n"))
    assertTrue(lines.forall(_.contains(": status 0,")), lines.mkString("\n"))
    val scratch = Files.list(serverDir).toArray.map(_.toString).filter(_.contains(".warm"))
    assertEquals(Nil, scratch.toList, "the warm-up's scratch directory is removed")
  }

  @Test def aRequestEndsTheWarmUp(): Unit = {
    val c = client(settings(warmUps = 1000))
    assertEquals(0, run(Some(c), absFile(dir, "hello", hello)).status)
    val pid = awaitServer(c)
    assertEquals(AbscResult(0, "", "", "hello 48\n"), run(Some(c), absFile(dir, "hello2", hello.replace("6 * 7", "6 * 8"))))
    assertEquals(Some(pid), c.lastPid)
    // The request waited at most for the warm-up build under way; none starts after it.
    val after = warmUpLines(c).size
    Thread.sleep(3000)
    assertEquals(after, warmUpLines(c).size, "no warm-up build after a request")
    assertTrue(after < 1000)
  }

  @Test def resultsAndErrorsAreThoseOfTheCompilerJvm(): Unit = {
    val c = client()
    assertEquals(0, run(Some(c), absFile(dir, "start", hello)).status)
    awaitServer(c)
    val cwd = Paths.get("").toAbsolutePath
    val programs = List(
      absFile(dir, "ok", hello),
      absFile(dir, "typeError", "module T;\n{\n  Int x = True;\n}\n"),
      absFile(dir, "syntaxError", "module S;\n{\n  Int x = 1\n}\n"),
      absFile(dir, "failing", "module F;\n{\n  println(\"before\");\n  assert 1 == 2;\n}\n"),
      absFile(dir, "noMain", "module N;\ndef Int f(Int x) = x + 1;\n"),
      // A relative name: the server resolves it against the client's directory, and prints it as given.
      cwd.relativize(Paths.get(absFile(dir, "relative", "module R;\n{\n  String s = 1;\n}\n"))).toString)
    for (p <- programs) {
      val without = run(None, p)
      val withServer = run(Some(c), p)
      assertEquals(without, withServer, p)
      if (!p.endsWith("noMain.abs") && !p.endsWith("ok.abs") && !p.endsWith("failing.abs"))
        assertTrue(without.err.contains(s"$p:") && without.err.contains("error:"), without.err)
    }
    assertTrue(c.lastPid.isDefined)
  }

  @Test def aServerOfAnotherBuildIsReplaced(): Unit = {
    val c = client()
    assertEquals(None, c.runningPid())
    Files.createDirectories(serverDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
    // Another build: one more class path entry changes its stamp; it listens on this client's socket.
    val extra = Files.createDirectories(dir.resolve("extra-entry"))
    val old = new ProcessBuilder(javaCmd, "-XX:TieredStopAtLevel=1", "-cp",
      ClassPath.asString(ClassPath.entries :+ extra), "cogs.absc.driver.CompileServer", c.socket.toString, "600")
      .redirectErrorStream(true).redirectOutput(dir.resolve("old.log").toFile).start()
    handStarted += old
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120)
    while (!Files.exists(c.socket) && old.isAlive && System.nanoTime() < deadline) Thread.sleep(50)
    assertTrue(Files.exists(c.socket), "the old server listens")
    val r = run(Some(c), absFile(dir, "hello", hello))
    assertEquals(AbscResult(0, "", "", "hello 42\n"), r)
    assertTrue(old.waitFor(60, TimeUnit.SECONDS), "the old server stopped")
    val pid = awaitServer(c)
    assertNotEquals(old.pid(), pid)
    assertTrue(isAlive(pid))
    assertTrue(Files.readString(dir.resolve("old.log")).contains("replaced"))
  }

  @Test def aKilledServerIsReplacedAndAHungOneSkipped(): Unit = {
    val c = client(settings(answerMillis = 2000))
    val f = absFile(dir, "hello", hello)
    assertEquals(0, run(Some(c), f).status)
    val pid = awaitServer(c)
    ProcessHandle.of(pid).get.destroyForcibly()
    awaitExit(pid)
    assertTrue(Files.exists(c.socket), "a killed server leaves its socket file")
    c.lastPid = None
    assertEquals(AbscResult(0, "", "", "hello 42\n"), run(Some(c), f), "built without a word")
    assertEquals(None, c.lastPid)
    val second = awaitServer(c)
    assertNotEquals(pid, second)

    // Hung: something listens on the socket and never answers. The build is done without it.
    ProcessHandle.of(second).get.destroyForcibly()
    awaitExit(second)
    Files.deleteIfExists(c.socket)
    val hung = ServerSocketChannel.open(StandardProtocolFamily.UNIX)
    try {
      hung.bind(UnixDomainSocketAddress.of(c.socket))
      c.lastPid = None
      val r = run(Some(c), f)
      assertEquals(0, r.status)
      assertEquals("hello 42\n", r.programOut)
      assertTrue(r.err.matches("absc: the compile server did not answer \\(.*\\); compiling without it\n"), r.err)
      assertEquals(None, c.lastPid)
    } finally hung.close()
  }

  @Test def anIdleServerStops(): Unit = {
    val c = client(settings(idle = 1))
    assertEquals(0, run(Some(c), absFile(dir, "hello", hello)).status)
    val pid = awaitServer(c)
    awaitExit(pid)
    assertFalse(isAlive(pid))
    assertFalse(Files.exists(c.socket), "the socket file is removed")
  }

  @Test def twoConcurrentClientsStartOneServerAndAreServedByIt(): Unit = {
    // Two valid models: a failed build starts no server, and both must try to start one.
    val files = List(absFile(dir, "a", hello), absFile(dir, "b", hello.replace("6 * 7", "6 * 8")))
    val pool = Executors.newFixedThreadPool(2)
    try {
      val clients = files.map(_ => client())
      // Built at once, twice: from no server (both in compiler JVMs, both then starting the server:
      // one does, the other finds it), then both on that one server. Both clients are in this JVM,
      // so their starts take turns on a monitor before the file lock; the file lock between two
      // absc processes is not exercised here.
      def buildBoth(): List[(Int, String)] = files.zip(clients).map { case (f, c) =>
        pool.submit(new Callable[(Int, String)] {
          def call(): (Int, String) = {
            val err = new ByteArrayOutputStream
            val d = new Driver(AbsBackend, new PrintStream(err, true, UTF_8), verbose = false, Some(fork), server = Some(c))
            val status = d.readSources(List(f)).flatMap(s => d.build(s, CachePolicy.NoCache, None)).fold(_.status, b => { b.close(); 0 })
            (status, err.toString(UTF_8))
          }
        })
      }.map(_.get(5, TimeUnit.MINUTES))
      def check(builds: List[(Int, String)]): Unit = assertEquals(List((0, ""), (0, "")), builds)
      check(buildBoth())
      assertEquals(Nil, clients.flatMap(_.lastPid))
      // The start lock: the second client's start finds the first's server (it holds the lock
      // until its server answers), so there is one server, with one pid file.
      val pid = awaitServer(clients.head)
      val socket = clients.head.socket.toString
      val servers = ProcessHandle.allProcesses().toArray.map(_.asInstanceOf[ProcessHandle])
        .filter(h => h.info().commandLine().orElse("").contains(s"cogs.absc.driver.CompileServer $socket")).map(_.pid()).toList
      assertEquals(List(pid), servers, "one server process")
      check(buildBoth())
      assertEquals(List(Some(pid), Some(pid)), clients.map(_.lastPid), "one server")
    } finally pool.shutdownNow()
  }

  @Test def aDirectoryOpenToOthersIsNotUsed(): Unit = {
    Files.createDirectories(serverDir)
    Files.setPosixFilePermissions(serverDir, PosixFilePermissions.fromString("rwxrwxrwx"))
    val c = client()
    val r = run(Some(c), absFile(dir, "hello", hello))
    assertEquals(0, r.status)
    assertEquals("hello 42\n", r.programOut)
    assertEquals(s"absc: the compile server's directory $serverDir is open to other users (it must be 0700); compiling without it\n", r.err)
    assertEquals(None, c.lastPid)
  }
}
