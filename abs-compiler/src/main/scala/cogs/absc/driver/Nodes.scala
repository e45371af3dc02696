package cogs.absc.driver

import java.io.{BufferedReader, File, InputStream, InputStreamReader, PrintStream}
import java.net.{InetAddress, ServerSocket}
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.{CompletableFuture, TimeUnit}
import java.util.concurrent.atomic.AtomicBoolean

import scala.jdk.CollectionConverters._

import com.typesafe.config.{Config, ConfigException, ConfigFactory, ConfigValueType}

/**
 * `absc run --nodes local:N` and `absc run --node NAME --config FILE`: a model whose deployment
 * components are mapped to cluster nodes (`cogs.distributed.deployment`, see
 * `docs/distributed.md`) run as one JVM per node. absc does not depend on the module
 * cogs-distributed (Pekko): it starts each node as a JVM on the compiled model's classes and that
 * module's class path, which the launcher `absc` builds on demand and passes in the system property
 * [[ClassPathProperty]]. The node named `main` runs the model's main block; every other node runs
 * `cogs.distributed.abs.ServeModel`.
 */
private[driver] object Nodes {
  final val MainNode = "main"
  /** The distributed module's class path (its jar and the jars it runs on), set by the launcher. */
  final val ClassPathProperty = "absc.distributed.classpath"
  private final val ServeModel = "cogs.distributed.abs.ServeModel"
  private final val DeploymentKey = "cogs.distributed.deployment"
  /** One simulated clock for the model's nodes (the module's reference.conf; docs/distributed.md). */
  final val ClusterClockKey = "cogs.distributed.cluster-clock"
  /** `--node`'s addresses: node name to "host:port" (read here only; the nodes get Pekko's settings). */
  private final val NodesKey = "cogs.distributed.nodes"
  /** `--spread-components`: the nodes, in turn, of the components no mapping names (cogs.absc.run.RemotePlacement.SpreadKey). */
  final val SpreadKey = "cogs.distributed.spread-components"

  /** What the command line asks for, checked. */
  sealed trait Plan {
    def deployment: Map[String, String]
    def config: Option[Path]
    /** `--cluster-clock`: every node this absc starts gets [[ClusterClockKey]] on. */
    def clusterClock: Boolean
    /** `--spread-components`: every node, in the order unmapped components go to them (empty: not asked). */
    def spreadOrder: List[String]
  }
  /** `--nodes local:N`: main and n1..n(N-1) on loopback, free ports. */
  final case class Local(count: Int, deployment: Map[String, String], config: Option[Path], systemName: String,
      clusterClock: Boolean = false, spread: Boolean = false) extends Plan {
    def names: List[String] = MainNode :: (1 until count).map(i => s"n$i").toList
    def spreadOrder: List[String] = if (spread) Nodes.spreadOrder(names) else Nil
  }
  /** `--node NAME --config FILE`: one node of a cluster whose addresses FILE gives. */
  final case class One(name: String, deployment: Map[String, String], config: Option[Path], systemName: String,
      addresses: Map[String, (String, Int)], clusterClock: Boolean = false, spread: Boolean = false) extends Plan {
    def spreadOrder: List[String] = if (spread) Nodes.spreadOrder(addresses.keys.toList) else Nil
  }

  /**
   * The order in which `--spread-components` hands unmapped components to nodes: the serving
   * nodes by name (n1, n2, .. numerically), then `main`. The first component goes to a serving
   * node so that a model with one component does leave the main node (the main block's own COG is
   * on main already), and with two nodes the components alternate n1, main, n1, ...
   */
  def spreadOrder(names: List[String]): List[String] = {
    def key(n: String) = if (n.matches("n[0-9]{1,9}")) (0, n.drop(1).toInt, n) else (1, 0, n)
    names.filter(_ != MainNode).sortBy(key) :+ MainNode
  }

  /**
   * The plan of `--nodes` / `--node`, `--config`, `--deploy` (None when neither `--nodes` nor
   * `--node` is given), or why the options are wrong, in one paragraph.
   */
  def plan(nodes: Option[String], node: Option[String], config: Option[String], deploy: List[String],
      clusterClock: Boolean = false, spread: Boolean = false): Either[String, Option[Plan]] =
    if (nodes.isEmpty && node.isEmpty) {
      if (spread) Left("--spread-components spreads the deployment components over the nodes of --nodes or --node: give one of them " +
        "(e.g. --nodes local:2 --spread-components)")
      else if (clusterClock) Left("--cluster-clock is one simulated clock for the nodes of --nodes or --node: give one of them " +
        "(a run in one JVM has one clock already: leave --cluster-clock out)")
      else if (config.isDefined) Left("--config is the cluster's configuration of --nodes or --node: give one of them")
      else if (deploy.nonEmpty) Left("--deploy maps deployment components to the nodes of --nodes or --node: give one of them")
      else Right(None)
    } else if (nodes.isDefined && node.isDefined) Left("--nodes (all nodes on this machine) and --node (one node of a cluster) exclude each other")
    else for {
      file <- config match {
        case None => Right(None)
        case Some(f) =>
          val p = Paths.get(f)
          if (Files.isRegularFile(p)) Right(Some(p.toAbsolutePath)) else Left(s"--config: no such file: $f")
      }
      conf <- file match {
        case None => Right(ConfigFactory.empty())
        case Some(p) =>
          try Right(ConfigFactory.parseFile(p.toFile).resolve())
          catch { case e: ConfigException => Left(s"--config: ${e.getMessage}") }
      }
      fromFile <- stringMap(conf, DeploymentKey, file)
      given <- deploy.flatMap(_.split(',').toList).map(_.trim).filter(_.nonEmpty).foldLeft[Either[String, Map[String, String]]](Right(Map.empty)) {
        case (acc, d) => acc.flatMap { m =>
          d.split("=", 2) match {
            case Array(dc, n) if dc.trim.nonEmpty && n.trim.nonEmpty => Right(m + (dc.trim -> n.trim))
            case _ => Left(s"--deploy: '$d' is not COMPONENT=NODE (e.g. --deploy Right=n1,Left=main)")
          }
        }
      }
      deployment = fromFile ++ given
      _ <- if (deployment.nonEmpty || spread) Right(())
           else Left("no deployment component is mapped to a node: give --deploy COMPONENT=NODE (e.g. --deploy Right=n1), " +
             s"$DeploymentKey { .. } in the --config file, or --spread-components (without a mapping the model runs in one JVM: use plain 'absc run')")
      _ <- deployment.keys.find(_.contains('.')) match {
        case Some(dc) => Left(s"the deployment component '$dc' has a '.' in its name, which a node's configuration cannot carry")
        case None => Right(())
      }
      systemName = if (conf.hasPath("cogs.distributed.system-name")) conf.getString("cogs.distributed.system-name") else "cogs"
      plan <- (nodes, node) match {
        case (Some(spec), _) => local(spec, deployment, file, systemName)
        case (_, Some(name)) => one(name, deployment, file, conf, systemName)
        case _ => Left("unreachable")
      }
    } yield Some(plan match {
      case l: Local => l.copy(clusterClock = clusterClock, spread = spread)
      case o: One => o.copy(clusterClock = clusterClock, spread = spread)
    })

  private def local(spec: String, deployment: Map[String, String], file: Option[Path], systemName: String): Either[String, Plan] = {
    val Spec = "local:([0-9]{1,3})".r
    spec match {
      case Spec(n) if n.toInt >= 2 && n.toInt <= 64 =>
        val plan = Local(n.toInt, deployment, file, systemName)
        unknownTargets(deployment, plan.names.toSet).map { bad =>
          s"$bad, but --nodes $spec starts the nodes ${plan.names.mkString(", ")}"
        }.toLeft(plan)
      case _ =>
        Left(s"--nodes: '$spec' is not local:N with N from 2 to 64 (N JVMs on this machine: the main node 'main', " +
          "which runs the main block, and the serving nodes n1 .. n(N-1); e.g. --nodes local:2)")
    }
  }

  private def one(name: String, deployment: Map[String, String], file: Option[Path], conf: Config, systemName: String): Either[String, Plan] =
    file match {
      case None => Left(s"--node $name needs --config FILE, the cluster's configuration: every node's address " +
        s"($NodesKey { main = \"host:port\", n1 = \"host:port\" }) and the deployment")
      case Some(f) =>
        for {
          raw <- stringMap(conf, NodesKey, file)
          addresses <- raw.toList.sortBy(_._1).foldLeft[Either[String, Map[String, (String, Int)]]](Right(Map.empty)) {
            case (acc, (n, a)) => acc.flatMap { m =>
              val i = a.lastIndexOf(':')
              val port = if (i > 0) a.substring(i + 1).toIntOption else None
              port match {
                case Some(p) if p >= 1 && p <= 65535 => Right(m + (n -> (a.substring(0, i) -> p)))
                case _ => Left(s"$f: $NodesKey.$n = \"$a\" is not an address HOST:PORT (a port from 1 to 65535)")
              }
            }
          }
          _ <- if (addresses.contains(name)) Right(()) else Left(s"--node: no node named '$name' in $f " +
            s"($NodesKey names ${if (addresses.isEmpty) "no node" else addresses.keys.toList.sorted.mkString(", ")})")
          _ <- if (addresses.contains(MainNode)) Right(()) else Left(s"$f: $NodesKey has no node named '$MainNode' " +
            "(the node that runs the main block, and the cluster's seed)")
          _ <- unknownTargets(deployment, addresses.keySet).map(bad => s"$bad, but $f names the nodes ${addresses.keys.toList.sorted.mkString(", ")} " +
            s"($NodesKey)").toLeft(())
        } yield One(name, deployment, file, systemName, addresses)
    }

  private def unknownTargets(deployment: Map[String, String], names: Set[String]): Option[String] = {
    val bad = deployment.toList.sorted.filterNot { case (_, n) => names(n) }
    if (bad.isEmpty) None
    else Some(bad.map { case (dc, n) => s"deployment component '$dc' is mapped to node '$n'" }.mkString(", "))
  }

  /** The object at `key` as names to strings; absent: empty. */
  private def stringMap(conf: Config, key: String, file: Option[Path]): Either[String, Map[String, String]] =
    if (!conf.hasPath(key)) Right(Map.empty)
    else
      try {
        val o = conf.getObject(key)
        o.asScala.toList.find(_._2.valueType != ConfigValueType.STRING) match {
          case Some((k, v)) => Left(s"${file.getOrElse("--config")}: $key.$k must be a node name or an address (a string), not ${v.render}")
          case None => Right(o.unwrapped.asScala.map { case (k, v) => k -> String.valueOf(v) }.toMap)
        }
      } catch { case e: ConfigException => Left(s"${file.getOrElse("--config")}: $key must be an object { NAME = \"..\" }: ${e.getMessage}") }

  /** The distributed module's class path, or why there is none. */
  def distributedClassPath: Either[String, List[String]] =
    Option(System.getProperty(ClassPathProperty)).map(_.trim).filter(_.nonEmpty) match {
      case Some(cp) => Right(cp.split(File.pathSeparator).toList.filter(_.nonEmpty))
      // absc run on a class path that has the module already (its own tests).
      case None if getClass.getClassLoader.getResource(ServeModel.replace('.', '/') + ".class") ne null =>
        Right(ClassPath.entries.map(_.toString))
      case None => Left(s"a model's nodes run on the module cogs-distributed, which this absc was not given: run absc " +
        s"through the launcher ./absc, which builds that module on first use, or set -D$ClassPathProperty=CLASSPATH")
    }

  /** `n` free TCP ports on loopback (free when asked: a program could take one before its node binds it; that node then says so and the run ends). */
  private def freePorts(n: Int): List[Int] = {
    val sockets = List.fill(n)(new ServerSocket(0, 1, InetAddress.getLoopbackAddress))
    try sockets.map(_.getLocalPort) finally sockets.foreach(_.close())
  }

  /**
   * Runs the plan: every node a JVM on `classPath` with `properties` (`RunConfig.properties`) and the
   * node's own; the main node's main object gets `args`, its command line (the run's options, then
   * `--` and the program's arguments: `RunConfig.commandLine`). Returns the exit status of the main program (of the one node, with `--node`).
   */
  def run(plan: Plan, classPath: List[String], mainObject: String, args: Array[String], properties: List[(String, String)],
      javaOptions: List[String], err: PrintStream, timeoutMillis: Long = 0L, outputToErr: Boolean = false): Int = {
    // Out's standard output registers a shutdown hook when first used, which absc's main does after
    // the run: first used during a shutdown (Ctrl-C), that would throw.
    cogs.absc.lib.Out.flush()
    runPlan(plan, classPath, mainObject, args, properties, javaOptions, err, timeoutMillis, outputToErr)
  }

  /** What [[run]] returns when `timeoutMillis` passed before the main node ended (every node is then stopped). */
  final val TimedOut = -1

  private def runPlan(plan: Plan, classPath: List[String], mainObject: String, args: Array[String], properties: List[(String, String)],
      javaOptions: List[String], err: PrintStream, timeoutMillis: Long, outputToErr: Boolean): Int = plan match {
    case p: One =>
      val (host, port) = p.addresses(p.name)
      val (mh, mp) = p.addresses(MainNode)
      val jvm = start(p.name, if (p.name == MainNode) mainObject else ServeModel, if (p.name == MainNode) args else Array.empty,
        classPath, properties ++ nodeProperties(p, p.name, host, port, s"pekko://${p.systemName}@$mh:$mp"), javaOptions, inherit = true)
      val children = List(jvm)
      withCleanUp(children) { _ =>
        jvm.process.waitFor()
      }
    case p: Local =>
      val ports = freePorts(p.count)
      val seed = s"pekko://${p.systemName}@127.0.0.1:${ports.head}"
      val (mainJvm, serving) = {
        val started = List.newBuilder[Child]
        // The main node first: the seed, which the others join.
        val m = start(MainNode, mainObject, args, classPath,
          properties ++ nodeProperties(p, MainNode, "127.0.0.1", ports.head, seed), javaOptions, inherit = !outputToErr)
        // `absc test`: stdout is the PASS/FAIL lines only, every node's output goes to stderr, prefixed.
        if (outputToErr) m.pump(err, err)
        started += m
        val s = p.names.tail.zip(ports.tail).map { case (name, port) =>
          val c = start(name, ServeModel, Array.empty, classPath,
            properties ++ nodeProperties(p, name, "127.0.0.1", port, seed), javaOptions, inherit = false)
          c.pump(if (outputToErr) err else System.out, if (outputToErr) err else System.err)
          c
        }
        (m, s)
      }
      withCleanUp(mainJvm :: serving) { stopping =>
        val status = supervise(mainJvm, serving, err, stopping, timeoutMillis)
        if (outputToErr) mainJvm.drain()
        status
      }
  }

  /** The system properties that make a JVM the node `name` at `host:port`, joining the cluster through `seed`. */
  private[driver] def nodeProperties(plan: Plan, name: String, host: String, port: Int, seed: String): List[(String, String)] =
    plan.config.map(f => "config.file" -> f.toString).toList ++ List(
      "cogs.distributed.node-name" -> name,
      // Each node stops when this absc ends, also by SIGKILL, which leaves no hook to stop them.
      "cogs.absc.supervisor-pid" -> ProcessHandle.current().pid().toString,
      "pekko.remote.artery.canonical.hostname" -> host,
      "pekko.remote.artery.canonical.port" -> port.toString,
      "pekko.cluster.seed-nodes.0" -> seed) ++
      // Only when asked: without the option a --config FILE's own setting holds (a system property would override it).
      (if (plan.clusterClock) List(ClusterClockKey -> "on") else Nil) ++
      (if (plan.spreadOrder.nonEmpty) List(SpreadKey -> plan.spreadOrder.mkString(",")) else Nil) ++
      plan.deployment.toList.sorted.map { case (dc, n) => s"$DeploymentKey.$dc" -> n }

  /** A node's JVM. */
  private final class Child(val name: String, val process: Process) {
    private val pumps = List.newBuilder[Thread]

    /** Copies its output and errors, line by line, each line prefixed with `[name] `. */
    def pump(out: PrintStream, err: PrintStream): Unit = {
      pumps += copy(process.getInputStream, out)
      pumps += copy(process.getErrorStream, err)
    }

    private def copy(in: InputStream, to: PrintStream): Thread = {
      val t = new Thread(() => {
        val r = new BufferedReader(new InputStreamReader(in, UTF_8))
        try {
          var line = r.readLine()
          while (line ne null) {
            // One print of the whole line under the stream's lock: lines of nodes never mix.
            to.synchronized { to.print(s"[$name] $line${System.lineSeparator}"); to.flush() }
            line = r.readLine()
          }
        } catch { case _: java.io.IOException => } // the node was stopped
      }, s"absc-node-$name-output")
      t.setDaemon(true)
      t.start()
      t
    }

    /** Waits (bounded) until its output is copied. */
    def drain(): Unit = pumps.result().foreach(_.join(2000))

    def exited: CompletableFuture[Process] = process.onExit()
  }

  private def start(name: String, mainClass: String, args: Array[String], classPath: List[String], properties: List[(String, String)],
      javaOptions: List[String], inherit: Boolean): Child = {
    val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    // JDK 24 and later warn on stderr, four lines per JVM, when Pekko uses sun.misc.Unsafe's memory
    // access; the option exists from JDK 23 (JDK 17 refuses it).
    val unsafe = if (Runtime.version().feature() >= 23) List("--sun-misc-unsafe-memory-access=allow") else Nil
    val cmd = List(java) ++ FastRun.JvmOptions ++ unsafe ++ javaOptions ++ properties.map { case (k, v) => s"-D$k=$v" } ++
      List("-cp", classPath.mkString(File.pathSeparator), mainClass) ++ args
    val pb = new ProcessBuilder(cmd: _*)
    if (inherit) pb.inheritIO()
    new Child(name, pb.start())
  }

  /**
   * Waits for the main node; a serving node that ends with a non-zero status first (it could not
   * start or join, or it failed) ends the run: the main node is stopped and the status is 1.
   * After the main node, the serving nodes get a bounded time to see it leave and end by
   * themselves (status 0); with a main node killed by a signal they are stopped at once.
   */
  private def supervise(main: Child, serving: List[Child], err: PrintStream, stopping: AtomicBoolean, timeoutMillis: Long): Int = {
    var running = serving
    var failed: Option[Child] = None
    val deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis)
    while (main.process.isAlive && failed.isEmpty) {
      val any = CompletableFuture.anyOf((main.exited :: running.map(_.exited)): _*)
      if (timeoutMillis <= 0) any.get()
      else try any.get(math.max(1L, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
      catch {
        case _: java.util.concurrent.TimeoutException =>
          err.println(s"absc: the run did not end within ${timeoutMillis / 1000.0} s; every node is stopped")
          stop(main :: running)
          return TimedOut
      }
      val (ended, alive) = running.partition(!_.process.isAlive)
      running = alive
      // Status 0 is a serving node that saw the main node leave: its main program is ending.
      failed = ended.find(_.process.exitValue != 0)
    }
    failed match {
      case Some(_) if stopping.get => Exit.Failure // absc is being stopped, and its nodes with it
      case Some(f) =>
        f.drain()
        err.println(s"absc: node '${f.name}' ended with status ${f.process.exitValue} while the main node ran; " +
          "the run is stopped (its reason is in the node's lines above)")
        stop(main :: running)
        Exit.Failure
      case None =>
        val status = main.process.exitValue
        if (status >= 128) {
          err.println(s"absc: the main node ended with status $status (killed by signal ${status - 128}); the serving nodes are stopped")
          stop(running)
        } else {
          val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LeaveSeconds)
          running.foreach(c => c.process.waitFor(math.max(0L, deadline - System.nanoTime()), TimeUnit.NANOSECONDS))
          val late = running.filter(_.process.isAlive)
          if (late.nonEmpty) {
            err.println(s"absc: node${if (late.size > 1) "s" else ""} ${late.map(c => s"'${c.name}'").mkString(", ")} " +
              s"still ran $LeaveSeconds s after the main node ended; stopped")
            stop(late)
          }
          serving.foreach(_.drain())
          serving.filter(c => !late.contains(c) && c.process.exitValue != 0).foreach { c =>
            err.println(s"absc: node '${c.name}' ended with status ${c.process.exitValue}")
          }
        }
        status
    }
  }

  /** How long serving nodes may take to see the main node leave (they need well under a second). */
  private final val LeaveSeconds = 20L

  /** Stops JVMs: a termination request, then, after a bounded wait, a kill. */
  private def stop(children: List[Child]): Unit = {
    children.foreach(_.process.destroy())
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5)
    children.foreach { c =>
      if (!c.process.waitFor(math.max(0L, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) c.process.destroyForcibly()
    }
    children.foreach(_.process.waitFor(5, TimeUnit.SECONDS))
  }

  /**
   * Runs `body` with a shutdown hook that stops every node's JVM: absc ended by Ctrl-C or a
   * termination signal leaves none behind. (A kill -9 of absc runs no hook: then each node sees
   * absc's process end, through `cogs.absc.supervisor-pid`, and stops itself.)
   */
  private def withCleanUp(children: List[Child])(body: AtomicBoolean => Int): Int = {
    val stopping = new AtomicBoolean(false)
    val hook = new Thread(() => { stopping.set(true); stop(children.filter(_.process.isAlive)) }, "absc-nodes-stop")
    Runtime.getRuntime.addShutdownHook(hook)
    try body(stopping)
    finally {
      stop(children.filter(_.process.isAlive))
      try Runtime.getRuntime.removeShutdownHook(hook)
      catch { case _: IllegalStateException => } // the JVM is shutting down: the hook runs
    }
  }
}
