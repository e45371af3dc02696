package cogs.absc.modelapi

import java.util.concurrent.ConcurrentHashMap

import scala.jdk.CollectionConverters._

/**
 * The objects a model created with `[HTTPName: name]`, by name: one table per run, kept in the
 * run's program context (`RunContext.httpObjects`), so a run never sees another's objects. The
 * code absc generates for such a statement calls [[HttpObjects.register]] (inside a process of the
 * run, which finds its context); the run's Model API server reads its own run's table.
 *
 * A second registration of another object under a name that is taken is an error of the model
 * (the reference backends would silently keep one of the two): the statement raises it, and the
 * name keeps its first object.
 */
final class HttpObjects {
  private[this] val byName = new ConcurrentHashMap[String, AnyRef]
  // Registration order, for a stable listing: names are few, so a copy-on-write list is enough.
  private[this] val order = new java.util.concurrent.CopyOnWriteArrayList[String]

  /** A `null` object is not registered: there is nothing to call. */
  def register(name: String, obj: AnyRef): Unit =
    if (obj ne null) {
      val before = byName.putIfAbsent(name, obj)
      if (before == null) order.add(name)
      else if (before ne obj)
        throw new IllegalStateException(s"[HTTPName: \"$name\"]: the name is already taken by $before (registering $obj); " +
          "the Model API needs one object per name")
    }

  def names: List[String] = order.asScala.toList

  def lookup(name: String): Option[AnyRef] = Option(byName.get(name))
}

object HttpObjects {
  /** Called by generated code, inside a process: registers in the table of the run it belongs to. */
  def register(name: String, obj: AnyRef): Unit = cogs.absc.run.RunContext.current.httpObjects.register(name, obj)
}
