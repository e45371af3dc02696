package cogs.absc.driver

import java.io.{ByteArrayOutputStream, DataInputStream, DataOutputStream, IOException, PrintStream}
import java.net.{StandardProtocolFamily, UnixDomainSocketAddress}
import java.nio.ByteBuffer
import java.nio.channels.{Channels, FileChannel, SelectionKey, Selector, ServerSocketChannel, SocketChannel}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, LinkOption, Path, Paths, StandardOpenOption}
import java.nio.file.attribute.PosixFilePermissions
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import java.util.concurrent.locks.ReentrantLock

/**
 * The compile server: a JVM with the full JIT that stays alive between `absc run`s and does what
 * `absc build-into` does in the compiler JVM, so that scalac (most of a cold build) runs warm.
 * See the README, "The compile server".
 *
 * Protocol, over a Unix-domain socket (DataInput/DataOutput framing; nothing here needs JSON):
 *  - client: `Magic`, `Version`, the build stamp (UTF); server: `Ready` and its pid, or `Stale`
 *    (it then stops: the client is a different build of absc or uses another JDK).
 *  - client: its working directory (UTF), the argument count, the arguments of `build-into`.
 *  - server: frames until the end: `Beat` (nothing; sent every [[BeatMillis]] while the build
 *    waits or runs, so that a client can tell a busy server from a hung one), then `Out` and
 *    `Err` (length, bytes: what build-into printed, whole), then `Status` (int).
 */
private[driver] object CompileServer {
  final val Magic = 0x41425343 // "ABSC"
  final val Version = 1
  final val Ready: Byte = 0
  final val Stale: Byte = 1
  final val Beat: Byte = 'B'
  final val Out: Byte = 'O'
  final val Err: Byte = 'E'
  final val Status: Byte = 'S'
  final val BeatMillis = 2000L

  /** The build of absc this JVM runs: its class path's fingerprint (paths, sizes, times) and the JDK. */
  lazy val stamp: String =
    FastRun.sha256((ClassPath.fingerprint(ClassPath.entries) + "\u0000" + System.getProperty("java.home") + "\u0000" +
      System.getProperty("java.vm.version")).getBytes(UTF_8))

  /**
   * `CompileServer SOCKET IDLE_SECONDS [WARM_UPS CWD ARGS..]`: started by [[ServerClient]], never
   * by hand. With WARM_UPS, the server builds `build-into ARGS` (into a scratch directory, see
   * [[ServerClient.startInBackground]]) up to that many times before anyone asks, so that the
   * first real build finds scalac compiled by the JIT.
   */
  def main(args: Array[String]): Unit = {
    val socket = Paths.get(args(0))
    val idleMillis = math.max(1L, args(1).toLong) * 1000L
    val warmUp = if (args.length > 3) Some(WarmUp(args(2).toInt, Paths.get(args(3)), args.drop(4))) else None
    val server = new Server(socket, idleMillis, warmUp)
    server.serve()
    System.exit(0)
  }

  /**
   * Builds to run before the first request: `build-into SCRATCH-PID ...`, removed after each. The
   * pid, so that a server replaced while it warms up never builds into its successor's directory.
   */
  private final case class WarmUp(times: Int, cwd: Path, given: Array[String]) {
    val args: Array[String] = given.updated(1, given(1) + "-" + ProcessHandle.current().pid())
    def scratch: Path = Paths.get(args(1))
  }

  private final class Server(socket: Path, idleMillis: Long, warmUp: Option[WarmUp]) {
    private val listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX)
    // Requests run one at a time: the compiler is not shared between them (a fresh Driver and a
    // fresh scalac Global each), but two scalac runs at once on a small machine only slow both.
    private val buildLock = new ReentrantLock(true)
    private val active = new AtomicInteger
    private val lastActivity = new AtomicLong(System.nanoTime())
    @volatile private var stopping = false
    // Set by the first real request: warm-up builds stop then (one already running finishes; the
    // fair lock puts the request right after it).
    @volatile private var asked = false
    private var socketKey: AnyRef = _
    private val owner = Files.getOwner(socket.getParent)

    def serve(): Unit = {
      listener.bind(UnixDomainSocketAddress.of(socket))
      // The directory is the user's alone (0700, checked by the client); the socket too.
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"))
      socketKey = Files.readAttributes(socket, classOf[java.nio.file.attribute.BasicFileAttributes], LinkOption.NOFOLLOW_LINKS).fileKey()
      val pidFile = pidFileOf(socket)
      Files.writeString(pidFile, ProcessHandle.current().pid().toString, UTF_8)
      val idle = new Thread(() => watchIdle(), "absc-server-idle")
      idle.setDaemon(true)
      idle.start()
      log(s"serving on $socket (pid ${ProcessHandle.current().pid()}, stops after ${idleMillis / 1000} s idle)")
      warmUp.filter(_.times > 0).foreach { w =>
        active.incrementAndGet() // the idle watch must not stop a server that is warming up
        val t = new Thread(null, () => try warm(w) finally {
          lastActivity.set(System.nanoTime())
          active.decrementAndGet()
        }, "absc-server-warm-up", 256L << 20)
        t.setDaemon(true)
        t.start()
      }
      try {
        while (!stopping) {
          val ch = try listener.accept() catch { case _: IOException => null }
          if (ch ne null) {
            active.incrementAndGet()
            lastActivity.set(System.nanoTime())
            // A large stack: the parser, the checker and scalac recurse over deeply nested input.
            val t = new Thread(null, () => try handle(ch) finally {
              lastActivity.set(System.nanoTime())
              active.decrementAndGet()
            }, "absc-server-request", 256L << 20)
            t.start()
          }
        }
      } finally stop("stopping")
      // Requests already accepted finish before the JVM exits.
      while (active.get() > 0) Thread.sleep(50)
      Files.deleteIfExists(pidFile)
    }

    /** Stops accepting; removes the socket file only if it is still the one this server bound. */
    private def stop(why: String): Unit = synchronized {
      if (!stopping) log(why)
      stopping = true
      try {
        val key = try Files.readAttributes(socket, classOf[java.nio.file.attribute.BasicFileAttributes], LinkOption.NOFOLLOW_LINKS).fileKey()
          catch { case _: IOException => null }
        if ((key ne null) && key == socketKey) Files.deleteIfExists(socket)
      } catch { case _: IOException => () }
      try listener.close() catch { case _: IOException => () }
    }

    private def watchIdle(): Unit =
      while (!stopping) {
        Thread.sleep(math.min(1000L, idleMillis))
        if (active.get() == 0 && System.nanoTime() - lastActivity.get() > TimeUnit.MILLISECONDS.toNanos(idleMillis))
          stop(s"idle for ${idleMillis / 1000} s")
      }

    private def handle(ch: SocketChannel): Unit =
      try {
        if (!samePeer(ch)) { log("refused a connection from another user"); return }
        val in = new DataInputStream(Channels.newInputStream(ch))
        val out = new DataOutputStream(Channels.newOutputStream(ch))
        if (in.readInt() != Magic) return
        val version = in.readInt()
        val clientStamp = in.readUTF()
        if (version != Version || clientStamp != stamp) {
          // Another build of absc: stop first (the socket file is gone before the client hears it).
          stop("replaced: a client of another build of absc connected")
          out.writeByte(Stale); out.flush()
          return
        }
        out.writeByte(Ready)
        out.writeLong(ProcessHandle.current().pid())
        out.flush()
        val cwd = Paths.get(in.readUTF())
        val args = Array.fill(in.readInt())(in.readUTF())
        asked = true
        val beats = new Thread(() => {
          try while (true) {
            Thread.sleep(BeatMillis)
            out.synchronized { out.writeByte(Beat); out.flush() }
          } catch { case _: InterruptedException | _: IOException => () }
        }, "absc-server-beat")
        beats.setDaemon(true)
        beats.start()
        val outBytes = new ByteArrayOutputStream
        val errBytes = new ByteArrayOutputStream
        val status =
          try {
            buildLock.lock()
            try build(args, cwd, outBytes, errBytes)
            finally buildLock.unlock()
          } finally { beats.interrupt(); beats.join() }
        out.synchronized {
          out.writeByte(Out); out.writeInt(outBytes.size()); outBytes.writeTo(out)
          out.writeByte(Err); out.writeInt(errBytes.size()); errBytes.writeTo(out)
          out.writeByte(Status); out.writeInt(status)
          out.flush()
        }
      } catch {
        case e: IOException => log(s"a client went away: $e")
      } finally ch.close()

    private def warm(w: WarmUp): Unit = {
      var i = 0
      while (i < w.times && !asked && !stopping) {
        i += 1
        buildLock.lock()
        // The line is logged once the scratch directory is gone: a reader of the log (the test)
        // may take the line as the end of the build.
        val done =
          try if (asked) None else {
            val started = System.nanoTime()
            val sink = new ByteArrayOutputStream
            val status = build(w.args, w.cwd, sink, sink)
            Some(s"warm-up build $i of ${w.times}: status $status, ${(System.nanoTime() - started) / 1000000} ms")
          } finally {
            buildLock.unlock()
            try ClassCache.deleteTree(w.scratch) catch { case _: IOException => () }
          }
        done.foreach(log)
      }
    }

    /** `absc build-into ARGS` with the client's directory for its relative file names. */
    private def build(args: Array[String], cwd: Path, out: ByteArrayOutputStream, err: ByteArrayOutputStream): Int = {
      val o = new PrintStream(out, true, UTF_8)
      val e = new PrintStream(err, true, UTF_8)
      try Main.run(args, o, e, baseDir = Some(cwd))
      catch {
        case t: Throwable =>
          e.println(s"absc: internal error in the compile server: $t")
          Exit.Compile
      } finally { o.flush(); e.flush() }
    }

    /** The peer's user, where the platform says (Linux); elsewhere the directory's 0700 is the guard. */
    private def samePeer(ch: SocketChannel): Boolean =
      try {
        val peer = ch.getOption(jdk.net.ExtendedSocketOptions.SO_PEERCRED)
        peer.user().getName == owner.getName
      } catch { case _: UnsupportedOperationException | _: IOException => true }

    private def log(message: String): Unit = {
      System.err.println(s"${java.time.Instant.now()} absc compile server: $message")
      System.err.flush()
    }
  }

  def pidFileOf(socket: Path): Path = socket.resolveSibling(socket.getFileName.toString.stripSuffix(".sock") + ".pid")
}

/**
 * Where the compile server lives and how it is started: `dir` (the user's, 0700) holds
 * `s-KEY.sock`, `.lock`, `.pid` and `.log`, KEY naming this checkout's class path, so that two
 * checkouts have two servers and a rebuilt checkout replaces its own.
 */
final case class ServerSettings(dir: Path, idleSeconds: Long, jvmOptions: List[String], javaCommand: String,
    archive: Option[Path] = None, startTimeoutMillis: Long = 60000L, answerMillis: Long = 10000L, silenceMillis: Long = 60000L,
    warmUps: Int = ServerSettings.DefaultWarmUps)

object ServerSettings {
  final val DefaultIdleSeconds = 600L
  /**
   * Builds a new server runs of the model that made it start, before anyone asks: on the
   * generated 2,000-line model, the third build on a server was the first clearly faster than the
   * compiler JVM's (`docs/benchmarks.md`, section 4, "Compile time").
   */
  final val DefaultWarmUps = 3

  /**
   * From the launcher's `-Dabsc.server.jvm.options` (no property: no server, e.g. absc embedded or
   * in tests) and the environment: `ABSC_NO_SERVER=1` turns it off, `ABSC_SERVER_WARM` (builds),
   * `ABSC_SERVER_IDLE` (seconds) and `ABSC_SERVER_DIR` change the warm-up, the idle time and the
   * directory.
   */
  def fromEnvironment(env: String => Option[String]): Option[ServerSettings] =
    if (env("ABSC_NO_SERVER").exists(_.nonEmpty)) None
    else sys.props.get("absc.server.jvm.options").map { opts =>
      val dir = env("ABSC_SERVER_DIR").filter(_.nonEmpty).map(Paths.get(_))
        .orElse(env("XDG_RUNTIME_DIR").filter(_.nonEmpty).map(Paths.get(_, "absc")))
        .getOrElse(Paths.get(System.getProperty("java.io.tmpdir"), "absc-" + System.getProperty("user.name")))
      val idle = env("ABSC_SERVER_IDLE").flatMap(_.trim.toLongOption).filter(_ > 0).getOrElse(DefaultIdleSeconds)
      val warmUps = env("ABSC_SERVER_WARM").flatMap(_.trim.toIntOption).filter(_ >= 0).getOrElse(DefaultWarmUps)
      ServerSettings(dir.toAbsolutePath, idle, opts.trim.split("\\s+").toList.filter(_.nonEmpty),
        Paths.get(System.getProperty("java.home"), "bin", "java").toString,
        sys.props.get("absc.compiler.jvm.archive").filter(_.nonEmpty).map(Paths.get(_)), warmUps = warmUps)
    }
}

private[driver] object ServerClient {
  private val starting = new Object
}

/** What a build on the server printed, and its exit status (that of `absc build-into`). */
private[driver] final case class ServerBuild(out: Array[Byte], err: Array[Byte], status: Int, pid: Long)

/** The client side: finds or starts this build's server and hands it one `build-into`. */
private[driver] final class ServerClient(val settings: ServerSettings) {
  import CompileServer._

  private val key = FastRun.sha256(ClassPath.asString(ClassPath.entries).getBytes(UTF_8)).take(16)
  val socket: Path = settings.dir.resolve(s"s-$key.sock")
  private val lockFile = settings.dir.resolve(s"s-$key.lock")
  val logFile: Path = settings.dir.resolve(s"s-$key.log")

  /** The pid of the server that did this client's last build (for `-v` and the tests). */
  @volatile var lastPid: Option[Long] = None

  /**
   * Runs `build-into ARGS` (relative names against `cwd`) on this build's server if one runs.
   * Right(None): none runs (the caller builds elsewhere, then may [[startInBackground]]: a server
   * started for this build would compile cold, slower than the compiler JVM). Left: why the
   * server could not do it (the caller builds without it); the build itself, even a failed one,
   * is a Right(Some).
   */
  def build(args: List[String], cwd: Path): Either[String, Option[ServerBuild]] =
    try {
      ensureDirectory() match {
        case Some(problem) => Left(problem)
        case None =>
          hello() match {
            case Left(problem) => Left(problem)
            case Right(None) => Right(None)
            case Right(Some((ch, pid))) =>
              try {
                val r = request(ch, pid, args, cwd)
                r.foreach(b => lastPid = Some(b.pid))
                r.map(Some(_))
              } finally ch.close()
          }
      }
    } catch {
      // Whatever goes wrong with the server, the caller still builds the program without it.
      case scala.util.control.NonFatal(e) => Left(s"the compile server failed ($e)")
    }

  /**
   * Starts this build's server, if none runs yet, on a thread of its own (the caller goes on to
   * run its program): it warms up by building `argsInto(SCRATCH)` [[ServerSettings.warmUps]]
   * times, SCRATCH being a directory of its own, until the first real request. `argsInto` must
   * write nothing but its build directory (no `--keep-generated`). Failures are only logged in
   * the server's log: the next build finds no server and builds without it again. A JVM that
   * exits first (a short program, `System.exit`) may end this thread before it spawned the
   * server: then the next miss starts one.
   */
  def startInBackground(argsInto: Path => List[String], cwd: Path): Thread = {
    val t = new Thread(() =>
      try {
        if (ensureDirectory().isEmpty) connectOrStart(Some(argsInto(settings.dir.resolve(s"s-$key.warm")) -> cwd)).foreach(_._1.close())
      } catch {
        case scala.util.control.NonFatal(e) =>
          // Nobody waits for this thread: say it where the server's own messages go.
          try Files.writeString(logFile, s"${java.time.Instant.now()} absc: the compile server could not be started: $e\n", UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.APPEND)
          catch { case _: IOException => () }
      }, "absc-server-start")
    t.setDaemon(true) // the program's end does not wait for it; the server, once spawned, lives on
    t.start()
    t
  }

  /** The server's pid if one of this build answers now (for tests and `-v`); starts nothing. */
  def runningPid(): Option[Long] =
    if (!Files.exists(socket)) None
    else hello() match {
      case Right(Some((ch, pid))) => ch.close(); Some(pid)
      case _ => None
    }

  /** The directory must be ours and closed to others, or the socket in it would not be private. */
  private def ensureDirectory(): Option[String] = {
    val d = settings.dir
    if (!Files.isDirectory(d)) {
      Files.createDirectories(d.getParent)
      try Files.createDirectory(d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
      catch { case _: java.nio.file.FileAlreadyExistsException => () }
    }
    val perms = Files.getPosixFilePermissions(d, LinkOption.NOFOLLOW_LINKS)
    val me = System.getProperty("user.name")
    val owner = Files.getOwner(d, LinkOption.NOFOLLOW_LINKS).getName
    if (Files.isSymbolicLink(d) || owner != me) Some(s"the compile server's directory $d is not yours")
    else if (perms != PosixFilePermissions.fromString("rwx------")) Some(s"the compile server's directory $d is open to other users (it must be 0700)")
    else None
  }

  private def connectOrStart(warm: Option[(List[String], Path)]): Either[String, (SocketChannel, Long)] =
    hello() match {
      case Right(Some(ready)) => Right(ready)
      case Left(problem) => Left(problem)
      case Right(None) =>
        // Nobody (of this build) listens: start one, under the lock, so that two clients at once
        // start one server; the second finds it when it gets the lock.
        // A file lock keeps out other processes; within one JVM (absc embedded, the tests) a
        // second lock of the same file would throw, so threads take turns on a monitor first.
        ServerClient.starting.synchronized {
          val lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)
          try {
            val lock = lockChannel.lock()
            try hello() match {
              case Right(None) => start(warm)
              case other => other.flatMap(_.toRight("the compile server did not answer"))
            } finally lock.release()
          } finally lockChannel.close()
        }
    }

  /**
   * Connects and says hello. Right(None): no server of this build (no socket, nobody listening,
   * or a stale one, which stops itself). Left: one listens but does not answer in time (hung).
   */
  private def hello(): Either[String, Option[(SocketChannel, Long)]] = {
    val ch = SocketChannel.open(StandardProtocolFamily.UNIX)
    try ch.connect(UnixDomainSocketAddress.of(socket))
    catch {
      case _: IOException => ch.close(); return Right(None) // no file, or nobody listens (a killed server)
    }
    try {
      val out = new DataOutputStream(Channels.newOutputStream(ch))
      out.writeInt(Magic); out.writeInt(Version); out.writeUTF(stamp); out.flush()
      val reply = readWithin(ch, 1, settings.answerMillis).get()
      if (reply == Ready) {
        val pid = readWithin(ch, 8, settings.answerMillis).getLong()
        Right(Some((ch, pid)))
      } else {
        ch.close()
        waitUntilGone()
        Right(None)
      }
    } catch {
      case e: IOException => ch.close(); Left(s"the compile server did not answer ($e)")
    }
  }

  /** A stale server removes its socket before it answers; this only covers a slow file system. */
  private def waitUntilGone(): Unit = {
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5)
    while (Files.exists(socket) && System.nanoTime() < deadline) Thread.sleep(20)
  }

  private def start(warm: Option[(List[String], Path)]): Either[String, (SocketChannel, Long)] = {
    Files.deleteIfExists(socket) // nobody listens on it (checked under the lock)
    val archive = settings.archive.filter(Files.isRegularFile(_)).toList
      .flatMap(a => List(s"-XX:SharedArchiveFile=$a", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"))
    // setsid: its own session, so that a Ctrl-C in the terminal of the absc that started it
    // does not stop the server too.
    val setsid = List("/usr/bin/setsid", "/bin/setsid").find(p => Files.isExecutable(Paths.get(p))).toList
    // Not under `nice`, though its warm-up competes with the program of the absc that started it:
    // a process cannot raise its priority again, and the real builds that follow would wait for
    // every other process of the machine (tried: on a loaded machine they then took longer than
    // the compiler JVM's).
    val command = setsid ++ List(settings.javaCommand) ++ settings.jvmOptions ++ archive ++
      List("-cp", ClassPath.asString(ClassPath.entries), "cogs.absc.driver.CompileServer", socket.toString, settings.idleSeconds.toString) ++
      warm.filter(_ => settings.warmUps > 0).toList.flatMap { case (args, cwd) => List(settings.warmUps.toString, cwd.toAbsolutePath.toString) ++ args }
    val process = new ProcessBuilder(command: _*)
      .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
      .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile))
      .redirectErrorStream(true)
      .start()
    val deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.startTimeoutMillis)
    while (System.nanoTime() < deadline) {
      if (Files.exists(socket)) hello() match {
        case Right(Some(ready)) => return Right(ready)
        case Left(problem) => return Left(problem)
        case Right(None) => ()
      }
      if (!process.isAlive) return Left(s"the compile server did not start (status ${process.exitValue()}; see $logFile)")
      Thread.sleep(20)
    }
    process.destroyForcibly()
    Left(s"the compile server did not start within ${settings.startTimeoutMillis / 1000} s (see $logFile)")
  }

  private def request(ch: SocketChannel, pid: Long, args: List[String], cwd: Path): Either[String, ServerBuild] = {
    val out = new DataOutputStream(Channels.newOutputStream(ch))
    out.writeUTF(cwd.toAbsolutePath.toString)
    out.writeInt(args.size)
    args.foreach(out.writeUTF)
    out.flush()
    var outBytes = Array.emptyByteArray
    var errBytes = Array.emptyByteArray
    while (true) {
      val tag = try readWithin(ch, 1, settings.silenceMillis).get()
        catch {
          case e: IOException =>
            // It may still be writing into the build's directory, where the compiler JVM is about
            // to build: a server that stopped answering mid-build is stopped for good.
            ProcessHandle.of(pid).ifPresent(h => { h.destroyForcibly(); () })
            return Left(s"the compile server (pid $pid) stopped answering ($e)")
        }
      tag match {
        case Beat => ()
        case Out => outBytes = readBlock(ch)
        case Err => errBytes = readBlock(ch)
        case Status => return Right(ServerBuild(outBytes, errBytes, readWithin(ch, 4, settings.silenceMillis).getInt(), pid))
        case other => return Left(s"the compile server sent an unknown frame ($other)")
      }
    }
    Left("unreachable")
  }

  private def readBlock(ch: SocketChannel): Array[Byte] = {
    val n = readWithin(ch, 4, settings.silenceMillis).getInt()
    if (n < 0) throw new IOException(s"bad block length $n")
    readWithin(ch, n, settings.silenceMillis).array()
  }

  /** Exactly `n` bytes, each read within `millis` of the previous one, or an IOException. */
  private def readWithin(ch: SocketChannel, n: Int, millis: Long): ByteBuffer = {
    val buf = ByteBuffer.allocate(n)
    ch.configureBlocking(false)
    val selector = Selector.open()
    try {
      ch.register(selector, SelectionKey.OP_READ)
      while (buf.hasRemaining) {
        if (selector.select(millis) == 0) throw new IOException(s"no answer within ${millis / 1000.0} s")
        selector.selectedKeys().clear()
        if (ch.read(buf) < 0) throw new IOException("the connection was closed")
      }
    } finally {
      selector.close()
      ch.configureBlocking(true)
    }
    buf.flip()
    buf
  }
}
