package cogs.distributed

import cogs.runtime.{ActiveObject, Proc}
import java.lang.invoke.{MethodHandle, MethodHandles, MethodType}
import java.lang.reflect.{InvocationTargetException, Method, Modifier}

/**
 * The methods a remote call can reach on objects of one class, fixed once per class when its
 * first object is registered (created or exported): public instance methods, grouped by name and
 * number of arguments, each group at an index. A call names its method by that index (the
 * reference learnt the table from the creation's answer) or, from a reference that has not, by
 * name, resolved here through a map; either way no reflective lookup per call, and the method is
 * called through a method handle.
 */
private[distributed] final class MethodTable private (cls: Class[_]) {
  import MethodTable._

  private[this] val groups: Array[Group] = {
    val ms = cls.getMethods.filter(m => !Modifier.isStatic(m.getModifiers) && m.getDeclaringClass != classOf[Object] &&
      !m.isSynthetic && !m.isBridge)
    ms.groupBy(m => (m.getName, m.getParameterCount)).toArray.sortBy(_._1).map { case ((n, k), overloads) =>
      new Group(n, k, overloads.sortBy(_.toGenericString).map(new Entry(_)))
    }
  }
  /** The table as a caller learns it: each group's name and arity, in index order. */
  val names: Vector[String] = groups.iterator.map(g => s"${g.name}/${g.arity}").toVector
  private[this] val index = new RemoteRef.Methods(names)

  /** The index of `name` with `arity` arguments, or -1. */
  def indexOf(name: String, arity: Int): Int = index.indexOf(name, arity)

  def nameOf(index: Int): String = if (index >= 0 && index < groups.length) groups(index).name else s"#$index"

  /** Call method group `index` (or `name`, if the index is -1) on `target`: its `Proc`, or its value as one. */
  def invoke(target: ActiveObject, index: Int, name: String, args: Array[AnyRef]): Proc[Any] = {
    val i = if (index >= 0) index else indexOf(name, args.length)
    if (i < 0 || i >= groups.length || groups(i).arity != args.length) throw noSuch(name, args)
    val g = groups(i)
    val e =
      if (g.entries.length == 1) { val only = g.entries(0); if (only.fits(args)) only else throw noSuch(g.name, args) }
      else g.entries.find(_.fits(args)).getOrElse(throw noSuch(g.name, args))
    e.call(target, args) match {
      case p: Proc[_] => p.asInstanceOf[Proc[Any]]
      case v          => Proc.done(v)
    }
  }

  private def noSuch(name: String, args: Array[AnyRef]): NoSuchMethodException = {
    val types = args.map(a => if (a == null) "null" else a.getClass.getSimpleName).mkString(", ")
    new NoSuchMethodException(s"${cls.getSimpleName} has no public method $name($types)")
  }
}

private[distributed] object MethodTable {
  private val tables = new ClassValue[MethodTable] { def computeValue(c: Class[_]): MethodTable = new MethodTable(c) }

  /** The table of `c`, made on first use and kept while the class is loaded. */
  def of(c: Class[_]): MethodTable = tables.get(c)

  private final class Group(val name: String, val arity: Int, val entries: Array[Entry])

  private val Generic = MethodType.methodType(classOf[Object], classOf[Object], classOf[Array[Object]])

  /** One method, called through a method handle that takes the target and the arguments as an array. */
  private final class Entry(m: Method) {
    private[this] val types = m.getParameterTypes.map(boxed)
    private[this] val handle: MethodHandle =
      try MethodHandles.publicLookup().unreflect(m).asSpreader(classOf[Array[Object]], m.getParameterCount).asType(Generic)
      catch { case _: IllegalAccessException => null } // a public method of a class that is not: reflection

    def fits(args: Array[AnyRef]): Boolean = {
      var i = 0
      while (i < types.length) {
        val a = args(i)
        if (if (a == null) m.getParameterTypes()(i).isPrimitive else !types(i).isInstance(a)) return false
        i += 1
      }
      true
    }

    def call(target: AnyRef, args: Array[AnyRef]): AnyRef =
      if (handle ne null) (handle.invokeExact(target, args): AnyRef)
      else try m.invoke(target, args: _*) catch { case e: InvocationTargetException if e.getCause ne null => throw e.getCause }
  }

  private def boxed(t: Class[_]): Class[_] =
    if (!t.isPrimitive) t
    else t match {
      case java.lang.Integer.TYPE   => classOf[java.lang.Integer]
      case java.lang.Long.TYPE      => classOf[java.lang.Long]
      case java.lang.Double.TYPE    => classOf[java.lang.Double]
      case java.lang.Boolean.TYPE   => classOf[java.lang.Boolean]
      case java.lang.Float.TYPE     => classOf[java.lang.Float]
      case java.lang.Short.TYPE     => classOf[java.lang.Short]
      case java.lang.Byte.TYPE      => classOf[java.lang.Byte]
      case java.lang.Character.TYPE => classOf[java.lang.Character]
      case _                        => classOf[scala.runtime.BoxedUnit]
    }
}
