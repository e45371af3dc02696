package cogs.absc.modelapi

import java.util.concurrent.ConcurrentHashMap

import scala.jdk.CollectionConverters._

/**
 * The objects a model created with `[HTTPName: name]`, by name. The code absc generates for such a
 * statement calls [[HttpObjects.register]]; the server reads the table.
 *
 * There is one table per JVM: a program runs once per JVM (standalone), or one at a time (inside
 * `absc run`, which clears it before each run). A second registration of another object under a
 * name that is taken is an error of the model (the reference backends would silently keep one of
 * the two): the statement raises it, and the name keeps its first object.
 */
object HttpObjects {
  private[this] val byName = new ConcurrentHashMap[String, AnyRef]
  // Registration order, for a stable listing: names are few, so a copy-on-write list is enough.
  private[this] val order = new java.util.concurrent.CopyOnWriteArrayList[String]

  /** Called by generated code, inside a process. A `null` object is not registered: there is nothing to call. */
  def register(name: String, obj: AnyRef): Unit =
    if (obj ne null) {
      val before = byName.putIfAbsent(name, obj)
      if (before == null) order.add(name)
      else if (before ne obj)
        throw new IllegalStateException(s"[HTTPName: \"$name\"]: the name is already taken by $before (registering $obj); " +
          "the Model API needs one object per name")
    }

  private[modelapi] def names: List[String] = order.asScala.toList

  private[modelapi] def lookup(name: String): Option[AnyRef] = Option(byName.get(name))

  /** Forget every object: before a run in a JVM that ran another program. */
  private[absc] def clear(): Unit = { byName.clear(); order.clear() }
}
