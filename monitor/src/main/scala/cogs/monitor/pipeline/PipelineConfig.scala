package cogs.monitor.pipeline

import cogs.trace.TraceEvent
import com.typesafe.config._
import java.util.concurrent.TimeUnit
import scala.jdk.CollectionConverters._

/** Where monitors run (see `cogs.monitor.mode` in reference.conf). */
sealed abstract class Mode(val configName: String) { override def toString: String = configName }
object Mode {
  case object Inline extends Mode("inline")
  case object Centralised extends Mode("outline-centralised")
  case object Decentralised extends Mode("outline-decentralised")
  val all: List[Mode] = List(Inline, Centralised, Decentralised)
}

/** Where the human summary goes. */
sealed trait SummaryTarget
object SummaryTarget {
  case object None extends SummaryTarget
  case object Stdout extends SummaryTarget
  case object Stderr extends SummaryTarget
  final case class File(path: java.nio.file.Path) extends SummaryTarget
}

/** A bad monitor configuration: `monitor.conf:12: dispatcher.kind: unknown 'pol'; expected single, indexed, per-key or pool`. */
final class MonitorConfigException(message: String) extends IllegalArgumentException(message)

/** What `observe` selects. `"*"` matches everything. */
final case class ObserveSettings(classes: Set[String], methods: Set[String]) {
  private[this] val allClasses = classes("*")
  private[this] val allMethods = methods("*")

  // Called for every process a traced object starts: no strings are built per call.
  private[this] val wholeClasses: Set[String] = methods.collect { case m if m.endsWith(".*") => m.dropRight(2) }
  private[this] val byClass: Map[String, Set[String]] =
    methods.filterNot(m => m == "*" || m.endsWith(".*")).flatMap { m =>
      val i = m.lastIndexOf('.')
      if (i <= 0) None else Some(m.substring(0, i) -> m.substring(i + 1))
    }.groupMap(_._1)(_._2)

  def observes(cls: String): Boolean = allClasses || classes(cls)
  def observesMethod(cls: String, method: String): Boolean =
    allMethods || wholeClasses(cls) || byClass.get(cls).exists(_(method))
}

object ObserveSettings {
  val everything: ObserveSettings = ObserveSettings(Set("*"), Set("*"))
}

/** The configured dispatch of one monitor, with the names it was configured by (for reports). */
final case class DispatcherConfig(
    kind: DispatchKind,
    keyName: String,
    key: TraceEvent => Any,
    unkeyed: Unkeyed,
    completeOn: Seq[String],
    completion: TraceEvent => Boolean,
    actors: Int,
    assign: Assign
) {
  def settings: DispatchSettings[TraceEvent] = DispatchSettings(kind, key, completion, actors, assign, unkeyed)

  /** `pool of 16 by future`, `per-key by object, ended on FutureResolved`. */
  def describe: String = {
    val how = kind match {
      case DispatchKind.Single  => "single"
      case DispatchKind.Indexed => s"indexed by $keyName"
      case DispatchKind.PerKey  => s"an actor per $keyName"
      case DispatchKind.Pool    => s"pool of $actors by $keyName ($assign)"
    }
    if (completeOn.isEmpty || kind == DispatchKind.Single) how else s"$how, ended on ${completeOn.mkString(", ")}"
  }
}

object DispatcherConfig {
  def apply(kind: DispatchKind, keyName: String, key: TraceEvent => Any): DispatcherConfig =
    DispatcherConfig(kind, keyName, key, Unkeyed.Skip, Nil, (_: TraceEvent) => false, 16, Assign.RoundRobin)
}

/** One configured monitor. */
/** One configured monitor; `timed`: it may read events' times (a class, or a property not registered as untimed). */
final case class MonitorConfig(name: String, source: String, make: Checker.Factory[TraceEvent], dispatcher: DispatcherConfig,
    timed: Boolean = true) {
  def spec: MonitorSpec[TraceEvent] = MonitorSpec(name, make, dispatcher.settings)
}

final case class OutputSettings(summary: SummaryTarget, json: Option[java.nio.file.Path], maxViolations: Int)

/** The whole `cogs.monitor` section, checked. Build it with [[PipelineConfig.parse]], or by hand. */
final case class PipelineSettings(
    mode: Mode,
    observe: ObserveSettings,
    ownTracer: Set[String],
    decentralisedCapacity: Int,
    capacity: Int,
    overload: Overload,
    batch: Int,
    checkSequence: Boolean,
    monitors: Seq[MonitorConfig],
    statistics: StatsSettings,
    output: OutputSettings,
    finishTimeoutNanos: Long,
    runtime: Config,
    maxDelayNanos: Long = TimeUnit.MILLISECONDS.toNanos(1)
)

object PipelineSettings {
  /** Defaults of reference.conf with these monitors; output to nowhere. Handy in code and tests. */
  def apply(mode: Mode, monitors: Seq[MonitorConfig]): PipelineSettings =
    PipelineSettings(mode, ObserveSettings.everything, Set.empty, 4096, 65536,
      Overload.Backpressure(TimeUnit.SECONDS.toNanos(10)), 256, checkSequence = true, monitors, StatsSettings.off,
      OutputSettings(SummaryTarget.None, None, 20), TimeUnit.SECONDS.toNanos(60), ConfigFactory.empty())
}

/** Reads and checks `cogs.monitor`. */
object PipelineConfig {
  val Root = "cogs.monitor"

  /**
   * The `cogs.monitor` section of `config` (over reference.conf), checked: every bad value is a
   * [[MonitorConfigException]] naming the file, line and key, what was found and what is expected.
   * With a null `loader`, monitors named by class are not loaded (absc checks a configuration
   * before the monitor sources that define them are compiled).
   */
  def parse(config: Config, registry: PropertyRegistry = PropertyRegistry.default,
            loader: ClassLoader = defaultLoader): PipelineSettings = {
    val reference = ConfigFactory.defaultReference(classOf[PipelineSettings].getClassLoader)
    val merged = config.withFallback(reference)
    if (!merged.hasPath(Root)) throw new MonitorConfigException(s"$Root: missing (is the monitor's reference.conf on the class path?)")
    val c = wrap(Root)(merged.getConfig(Root))
    checkUnknownKeys(c, reference.getConfig(Root))
    val r = new Reader(c)

    val mode = r.oneOf("mode", Mode.all)(_.configName)
    val dispatcherSection = r.get("dispatcher")(c.getConfig("dispatcher"))
    val global = dispatcher(new Reader(dispatcherSection, "dispatcher"), loader)
    val monitors = monitorEntries(c, r, dispatcherSection, global, registry, loader)
    if (mode == Mode.Inline)
      monitors.zipWithIndex.foreach { case (m, i) =>
        if (DispatchKind.needsActors(m.dispatcher.kind)) {
          val entry = c.getList("monitors").get(i).asInstanceOf[ConfigObject].toConfig
          val (origin, at) =
            if (entry.hasPath("dispatcher.kind")) (entry.getValue("dispatcher.kind").origin, s"monitors[$i].dispatcher.kind")
            else (c.getValue("dispatcher.kind").origin, "dispatcher.kind")
          r.failAt(origin, at, s"'${m.dispatcher.kind}' (monitor ${m.name}) needs monitor actors, which inline mode has not; use single or indexed, or an outline mode")
        }
      }

    val statsOn = r.bool("statistics.enabled")
    val statsActors = r.strings("statistics.actors")
    statsActors.foreach(a => if (a != "dispatcher" && a != "monitor") r.fail("statistics.actors", s"unknown actor '$a'; expected dispatcher or monitor"))
    val stats =
      if (!statsOn) StatsSettings.off
      else StatsSettings(statsActors.contains("dispatcher"), statsActors.contains("monitor"),
        r.intIn("statistics.sample-every", 1, Int.MaxValue), r.intIn("statistics.max-actor-lines", 0, Int.MaxValue))

    PipelineSettings(
      mode = mode,
      observe = ObserveSettings(r.strings("observe.classes").toSet, r.strings("observe.methods").toSet),
      ownTracer = r.strings("decentralised.own-tracer").toSet,
      decentralisedCapacity = r.intIn("decentralised.buffer-capacity", 2, 1 << 30),
      capacity = r.intIn("buffer.capacity", 2, 1 << 30),
      overload = r.oneOf("buffer.overload", List("backpressure", "drop"))(identity) match {
        case "drop" => Overload.Drop
        case _      => Overload.Backpressure(r.nanos("buffer.max-wait"))
      },
      batch = r.intIn("buffer.batch", 1, Int.MaxValue),
      checkSequence = r.bool("check-sequence"),
      monitors = monitors,
      statistics = stats,
      output = OutputSettings(summaryTarget(r), r.string("output.json") match {
        case "" => None
        case p  => Some(java.nio.file.Paths.get(p))
      }, r.intIn("output.max-violations", 0, Int.MaxValue)),
      finishTimeoutNanos = r.nanos("finish-timeout"),
      runtime = r.get("runtime")(c.getConfig("runtime")),
      maxDelayNanos = r.nanos("buffer.max-delay")
    )
  }

  private def defaultLoader: ClassLoader =
    Option(Thread.currentThread.getContextClassLoader).getOrElse(classOf[PipelineSettings].getClassLoader)

  private def summaryTarget(r: Reader): SummaryTarget = {
    val v = r.get("output.summary")(r.c.getValue("output.summary"))
    v.valueType match {
      case ConfigValueType.BOOLEAN => if (v.unwrapped == true) SummaryTarget.Stderr else SummaryTarget.None
      case ConfigValueType.STRING => v.unwrapped.asInstanceOf[String] match {
        case "stdout"       => SummaryTarget.Stdout
        case "stderr"       => SummaryTarget.Stderr
        case "none" | ""    => SummaryTarget.None
        case path           => SummaryTarget.File(java.nio.file.Paths.get(path))
      }
      case t => r.fail("output.summary", s"expected true, false, \"stdout\", \"stderr\" or a file path, found ${t.name.toLowerCase}")
    }
  }

  private def dispatcher(r: Reader, loader: ClassLoader): DispatcherConfig = {
    val kind = r.oneOf("kind", DispatchKind.all)(_.configName)
    val keyName = r.string("key")
    val key: TraceEvent => Any = TraceKeys.byName(keyName).getOrElse {
      if (keyName.contains('.')) { if (loader eq null) (_: TraceEvent) => null else keyClass(r, keyName, loader) }
      else r.fail("key", s"unknown '$keyName'; expected ${TraceKeys.names.mkString(", ")}, or a class name")
    }
    val completeOn = r.strings("complete-on")
    val preds = completeOn.map(s => TraceKeys.completion(s).fold(msg => r.fail("complete-on", msg), identity))
    val completion: TraceEvent => Boolean = preds match {
      case Seq()  => (_: TraceEvent) => false
      case Seq(p) => p
      case ps     => (e: TraceEvent) => ps.exists(_(e))
    }
    DispatcherConfig(kind, keyName, key, r.oneOf("unkeyed", Unkeyed.all)(_.configName), completeOn, completion,
      r.intIn("actors", 1, 1 << 20), r.oneOf("assign", Assign.all)(_.configName))
  }

  private def keyClass(r: Reader, name: String, loader: ClassLoader): TraceEvent => Any = {
    val cls =
      try Class.forName(name, true, loader)
      catch { case _: ClassNotFoundException => r.fail("key", s"class '$name' not found") }
    if (!classOf[Function1[_, _]].isAssignableFrom(cls))
      r.fail("key", s"class '$name' is not a scala.Function1[cogs.trace.TraceEvent, Any]")
    try cls.getConstructor().newInstance().asInstanceOf[TraceEvent => Any]
    catch { case e: ReflectiveOperationException => r.fail("key", s"class '$name' cannot be made with no arguments: $e") }
  }

  private def monitorEntries(c: Config, r: Reader, globalDispatcher: Config, global: DispatcherConfig,
                             registry: PropertyRegistry, loader: ClassLoader): Seq[MonitorConfig] = {
    val list = r.get("monitors")(c.getList("monitors"))
    val seen = scala.collection.mutable.Map.empty[String, Int]
    list.asScala.toVector.zipWithIndex.map { case (v, i) =>
      val at = s"monitors[$i]"
      if (v.valueType != ConfigValueType.OBJECT)
        r.failAt(v.origin, at, s"expected an object such as { property = \"name\" } or { class = \"my.pkg.Monitor\" }, found ${v.valueType.name.toLowerCase}")
      val entry = v.asInstanceOf[ConfigObject].toConfig
      val er = new Reader(entry, at)
      val hasProperty = entry.hasPath("property")
      val hasClass = entry.hasPath("class")
      val (defaultName, source, make) =
        if (hasProperty) {
          val p = er.string("property")
          val f = registry.get(p).getOrElse {
            val known = registry.names
            er.fail("property", s"unknown '$p'; " + (if (known.isEmpty) "no property is registered" else s"registered: ${known.mkString(", ")}"))
          }
          (p, s"property $p", (n: String) => () => f(n, entry))
        } else if (hasClass) {
          val cn = er.string("class")
          val f =
            if (loader eq null) () => throw new MonitorConfigException(s"monitor class $cn was not checked")
            else registry.byClass(cn, entry, loader).fold(msg => er.fail("class", msg), identity)
          (cn.substring(cn.lastIndexOf('.') + 1), s"class $cn", (_: String) => f)
        } else r.failAt(v.origin, at, "needs 'property' (a registered property) or 'class' (a Checker class name)")
      val name = if (entry.hasPath("name")) er.string("name") else defaultName
      // A property's parameters are checked now, by making one instance, not when its first key comes.
      if (hasProperty)
        try make(name)()
        catch { case e: MonitorConfigException => er.fail("property", s"${er.string("property")}: ${e.getMessage}") }
      seen.get(name).foreach(j => er.fail("name", s"'$name' is already the name of monitors[$j]; give one of them another name"))
      seen(name) = i
      val d =
        if (entry.hasPath("dispatcher")) {
          val own = er.get("dispatcher")(entry.getConfig("dispatcher"))
          checkUnknownKeys(own, globalDispatcher, s"$at.dispatcher")
          dispatcher(new Reader(own.withFallback(globalDispatcher), s"$at.dispatcher"), loader)
        } else global
      MonitorConfig(name, source, make(name), d, timed = !hasProperty || registry.usesTime(entry.getString("property")))
    }
  }

  /** A misspelt key would otherwise be ignored in silence. Monitor entries and the runtime section are free-form here. */
  private def checkUnknownKeys(c: Config, reference: Config, prefix: String = ""): Unit =
    c.entrySet.asScala.foreach { e =>
      val path = e.getKey
      val free = prefix.isEmpty && (path.startsWith("monitors") || path.startsWith("runtime."))
      if (!free && !reference.hasPathOrNull(path)) {
        val shown = if (prefix.isEmpty) path else s"$prefix.$path"
        val section = path.lastIndexOf('.') match {
          case -1 => reference
          case i  => if (reference.hasPath(path.substring(0, i))) reference.getConfig(path.substring(0, i)) else null
        }
        val known = if (section eq null) "" else s"; known here: ${section.root.keySet.asScala.toList.sorted.mkString(", ")}"
        throw new MonitorConfigException(s"${where(e.getValue.origin)}: $shown: unknown key$known")
      }
    }

  private def where(o: ConfigOrigin): String = {
    val file = Option(o.filename).map(f => java.nio.file.Paths.get(f).getFileName.toString)
      .orElse(Option(o.resource)).orElse(Option(o.url).map(u => u.getPath.substring(u.getPath.lastIndexOf('/') + 1)))
      .getOrElse {
        // parseString / parseReader: the origin description the caller gave, without its line
        val d = o.description.replaceFirst(":\\s*\\d+(-\\d+)?$", "")
        if (d == "String" || d.startsWith("merge of") || d.isEmpty) "config" else d
      }
    if (o.lineNumber >= 0) s"$file:${o.lineNumber}" else file
  }

  private def wrap[A](path: String)(read: => A): A =
    try read
    catch {
      case e: ConfigException.WrongType => throw new MonitorConfigException(s"${where(e.origin)}: $path: ${e.getMessage.replaceFirst("^.*?: ", "")}")
      case e: ConfigException if e.origin != null => throw new MonitorConfigException(s"${where(e.origin)}: $path: ${e.getMessage}")
      case e: ConfigException => throw new MonitorConfigException(s"$path: ${e.getMessage}")
    }

  /** Typed reads under one section, with errors that name the file, line and the key from `cogs.monitor` down. */
  private final class Reader(val c: Config, prefix: String = "") {
    private def full(path: String) = if (prefix.isEmpty) path else s"$prefix.$path"

    def fail(path: String, msg: String): Nothing = {
      val origin = if (c.hasPathOrNull(path)) c.getValue(path).origin else c.origin
      failAt(origin, full(path), msg)
    }

    def failAt(origin: ConfigOrigin, shown: String, msg: String): Nothing =
      throw new MonitorConfigException(s"${where(origin)}: $shown: $msg")

    def get[A](path: String)(read: => A): A =
      try read
      catch {
        case e: ConfigException.Missing => throw new MonitorConfigException(s"${full(path)}: missing")
        case e: ConfigException.WrongType =>
          val found = if (c.hasPathOrNull(path)) c.getValue(path).valueType.name.toLowerCase else "something else"
          fail(path, s"wrong type: found $found (${e.getMessage.replaceFirst("^.*has type ", "")})")
        case e: ConfigException.BadValue => fail(path, e.getMessage.replaceFirst("^.*?: ", ""))
      }

    def string(path: String): String = get(path)(c.getString(path))
    def bool(path: String): Boolean = get(path)(c.getBoolean(path))
    def strings(path: String): Seq[String] = get(path)(c.getStringList(path).asScala.toVector)
    def nanos(path: String): Long = get(path)(c.getDuration(path, TimeUnit.NANOSECONDS))

    def intIn(path: String, lo: Int, hi: Int): Int = {
      val n = get(path)(c.getInt(path))
      if (n < lo || n > hi) fail(path, s"$n is out of range; expected $lo to $hi")
      n
    }

    def oneOf[A](path: String, options: List[A])(name: A => String): A = {
      val s = string(path)
      options.find(o => name(o) == s).getOrElse {
        val names = options.map(name)
        val expected = if (names.size == 1) names.head else s"${names.init.mkString(", ")} or ${names.last}"
        fail(path, s"unknown '$s'; expected $expected")
      }
    }
  }
}
