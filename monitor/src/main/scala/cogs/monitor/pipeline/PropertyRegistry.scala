package cogs.monitor.pipeline

import cogs.trace.TraceEvent
import com.typesafe.config.Config
import java.util.concurrent.CopyOnWriteArrayList
import scala.jdk.CollectionConverters._

/**
 * Where configuration finds monitors by name: `monitors = [{ property = "call-answered", ... }]`
 * looks `call-answered` up here. A factory gets the monitor's name in reports and its configuration
 * entry (the whole `{ ... }`, so its parameters are plain keys) and makes one fresh instance per call:
 * dispatchers call it once per key or per actor.
 *
 * Monitors named by class (`{ class = "my.pkg.MyMonitor" }`) are made by reflection; a class that is
 * not a [[Checker]] can still be used if an adapter for one of its supertypes is registered (the
 * property DSL's monitors come in that way).
 */
final class PropertyRegistry {
  private[this] val factories = new java.util.concurrent.ConcurrentHashMap[String, (String, Config) => Checker[TraceEvent]]
  private[this] val adapters = new CopyOnWriteArrayList[(Class[_], AnyRef => Checker[TraceEvent])]

  // Properties known not to read `TraceEvent.nanos`; every other one (and every monitor given by
  // class) is assumed to, so that the runtime keeps stamping events for it.
  private[this] val untimed = java.util.concurrent.ConcurrentHashMap.newKeySet[String]()

  /** Register (or replace) a property. It may read events' times (`TraceEvent.nanos`). */
  def register(name: String, make: (String, Config) => Checker[TraceEvent]): this.type = {
    factories.put(name, make)
    untimed.remove(name)
    this
  }

  /**
   * Register (or replace) a property that never reads events' times: when every monitor of a
   * pipeline is such a property and its dispatchers keep no statistics, the runtime stamps no times
   * (`Tracing.timestamps`), one clock read less per event.
   */
  def registerUntimed(name: String, make: (String, Config) => Checker[TraceEvent]): this.type = {
    factories.put(name, make)
    untimed.add(name)
    this
  }

  /** Whether the property registered as `name` may read events' times (true for unknown names). */
  def usesTime(name: String): Boolean = !untimed.contains(name)

  /** Make instances of `cls` (and its subclasses) usable as monitors through `adapt`. */
  def adapter[T <: AnyRef](cls: Class[T])(adapt: T => Checker[TraceEvent]): this.type = {
    adapters.add((cls, (o: AnyRef) => adapt(cls.cast(o))))
    this
  }

  def get(name: String): Option[(String, Config) => Checker[TraceEvent]] = Option(factories.get(name))

  def names: Seq[String] = factories.keySet.asScala.toSeq.sorted

  /**
   * A factory for class `className`: a public constructor taking the entry's `Config`, or one taking
   * nothing. The class is checked now (found, constructible, a Checker or adaptable); instances are
   * made later, one per call of the factory. `Left` is the reason it cannot be used.
   */
  def byClass(className: String, params: Config, loader: ClassLoader): Either[String, Checker.Factory[TraceEvent]] = {
    val cls =
      try Class.forName(className, true, loader)
      catch {
        case _: ClassNotFoundException => return Left(s"class '$className' not found")
        case e: LinkageError           => return Left(s"class '$className' cannot be loaded: $e")
      }
    val adapt: AnyRef => Checker[TraceEvent] =
      if (classOf[Checker[_]].isAssignableFrom(cls)) (o: AnyRef) => o.asInstanceOf[Checker[TraceEvent]]
      else adapters.asScala.find(_._1.isAssignableFrom(cls)) match {
        case Some((_, f)) => f
        case None         => return Left(s"class '$className' is not a cogs.monitor.pipeline.Checker, and no adapter is registered for it")
      }
    val withConfig = cls.getConstructors.find(c => c.getParameterCount == 1 && c.getParameterTypes()(0) == classOf[Config])
    val noArgs = cls.getConstructors.find(_.getParameterCount == 0)
    val construct: () => AnyRef = (withConfig, noArgs) match {
      case (Some(c), _)    => () => c.newInstance(params).asInstanceOf[AnyRef]
      case (None, Some(c)) => () => c.newInstance().asInstanceOf[AnyRef]
      case _               => return Left(s"class '$className' needs a public constructor taking no arguments or a com.typesafe.config.Config")
    }
    Right { () =>
      try adapt(construct())
      catch { case e: java.lang.reflect.InvocationTargetException if e.getCause != null => throw e.getCause }
    }
  }
}

object PropertyRegistry {
  /** The registry `Pipeline.fromConfig` uses unless given another; the property DSL registers its ready-made properties here. */
  val default: PropertyRegistry = ReadyMade.register(new PropertyRegistry)
}
