package cogs.absc.lib

import java.lang.reflect.{InvocationTargetException, Method, Modifier}
import java.math.BigInteger

/**
 * The foreign implementation of one object of a `[Foreign]` ABS class (module ABS.FLI): an
 * instance of a Java or Scala class named by the system property
 * `cogs.absc.foreign.MODULE.CLASS` (`absc run --foreign MODULE.CLASS=JAVA_CLASS`, with the class
 * on `--classpath`). Each public method of that class whose name is an ABS method of the class
 * replaces the ABS method; the others keep their ABS body (the default implementation, as in
 * the reference). One instance per ABS object, made with its public no-argument constructor.
 *
 * Values at the boundary, by the Java method's parameter types: an ABS `Int` is given as `int`,
 * `long` (failing if it does not fit) or `BigInteger`; `String`, `Bool` (`boolean`) and `Float`
 * (`double`) as themselves; anything else (data values, lists, objects) as the ABS value. A
 * result is converted back by the ABS result type: `Int` from any Java integer or `BigInteger`,
 * `Unit` from `void`. A foreign method runs inside the calling process's slice, on its worker
 * thread (a blocking one blocks that worker); an ABS exception it throws is raised as itself,
 * any other fails the process as an ABS method's runtime error does.
 *
 * Reflection is done per ABS object (no cache shared by the JVM: a model runs in the compiler's
 * JVM next to others), which is cheap next to what a foreign class is for.
 */
final class Foreign private (val absClass: String, val impl: AnyRef, methods: Map[String, Array[Method]]) {

  /** True if the foreign class implements the ABS method `name`. */
  def has(name: String): Boolean = methods.contains(name)

  /** Runs the foreign `name` with the ABS arguments; `result`: the ABS result type's kind (see [[Foreign.kindOf]]). */
  def call[A](name: String, result: String, args: Any*): A = {
    val candidates = methods.getOrElse(name, Array.empty[Method]).filter(_.getParameterCount == args.size)
    val m = candidates.headOption.getOrElse(throw new IllegalStateException(
      s"the foreign class ${impl.getClass.getName} of $absClass has no public method $name with ${args.size} parameter(s)"))
    val javaArgs = args.zip(m.getParameterTypes).map { case (a, t) => Foreign.toJava(a, t, s"argument of $absClass.$name") }
    val r =
      try m.invoke(impl, javaArgs: _*)
      catch { case e: InvocationTargetException if e.getCause ne null => throw e.getCause }
    Foreign.fromJava(r, result, s"the result of ${impl.getClass.getName}.$name").asInstanceOf[A]
  }
}

/**
 * A model's own `def T f(..) = builtin;` bound to `public static apply(..)` of a Java or Scala
 * class on the class path (the names: `cogs.absc.lower.ForeignNames`), made by [[Foreign.function]]
 * once per run. Values cross the boundary as for a `[Foreign]` class's methods. An ABS exception
 * the implementation throws is raised as itself; any other is a [[BuiltinFailed]] naming the
 * function and where it is declared, which fails the calling process as a runtime error does.
 */
final class ForeignFunction private[lib] (absName: String, at: String, method: Method) {
  def call[A](result: String, args: Any*): A = {
    val javaArgs = args.zip(method.getParameterTypes).map { case (a, t) => Foreign.toJava(a, t, s"argument of the builtin function $absName") }
    val r =
      try method.invoke(null, javaArgs: _*)
      catch {
        case e: InvocationTargetException if e.getCause ne null => e.getCause match {
          case abs: AbsException => throw abs
          case other => throw new BuiltinFailed(
            s"the builtin function $absName ($at) failed in ${method.getDeclaringClass.getName}.apply: $other", other)
        }
      }
    Foreign.fromJava(r, result, s"the result of ${method.getDeclaringClass.getName}.apply (the builtin function $absName, $at)").asInstanceOf[A]
  }
}

/** A model's own builtin function failed in its implementation, or has none on the class path. */
final class BuiltinFailed private[lib] (message: String, cause: Throwable) extends RuntimeException(message, cause)

object Foreign {

  /**
   * The implementation of builtin function `absName` (`Module.f`, declared at `at`), with `arity`
   * parameters: `public static apply` of `javaClass`, found by the loader of `self` (the module's
   * object: the model's loader, with `--classpath`). None there is a [[BuiltinFailed]] saying what
   * was looked for.
   */
  def function(absName: String, javaClass: String, arity: Int, at: String, self: AnyRef): ForeignFunction = {
    def missing(what: String): Nothing = throw new BuiltinFailed(
      s"the builtin function $absName ($at) has no implementation: $what; it is a public static method apply with " +
        s"$arity parameter(s) of the class $javaClass, on the class path (absc run --classpath DIR_OR_JAR)", null)
    val loader = Option(self.getClass.getClassLoader).getOrElse(ClassLoader.getSystemClassLoader)
    val cls =
      try Class.forName(javaClass, true, loader)
      catch { case _: ClassNotFoundException | _: LinkageError => missing(s"no class $javaClass") }
    val m = cls.getMethods.find(m => m.getName == "apply" && Modifier.isStatic(m.getModifiers) && m.getParameterCount == arity)
      .getOrElse(missing(s"the class $javaClass has no public static apply with $arity parameter(s)"))
    new ForeignFunction(absName, at, m)
  }

  /** The system property that names the foreign class of ABS class `absClass` (`Module.Class`) for a program on its own. */
  def property(absClass: String): String = cogs.absc.run.RunOptions.ForeignPrefix + absClass

  /**
   * The foreign implementation of a new object of `absClass`, or null if none is bound (the ABS
   * methods run). A bound class that cannot be loaded or made fails the creation, naming it.
   */
  def bind(absClass: String, self: AnyRef): Foreign = {
    // The run's binding (its options: absc's --foreign, or the system property of a program on its own).
    val name = cogs.absc.run.RunContext.current.options.foreign.getOrElse(absClass, null)
    if ((name eq null) || name.trim.isEmpty) return null
    val loader = Option(self.getClass.getClassLoader).getOrElse(ClassLoader.getSystemClassLoader)
    val cls =
      try Class.forName(name.trim, true, loader)
      catch {
        case _: ClassNotFoundException =>
          throw new IllegalStateException(s"the foreign class $name of $absClass (${property(absClass)}) is not on the class path " +
            "(absc run --classpath DIR_OR_JAR)")
      }
    val impl =
      try cls.getConstructor().newInstance().asInstanceOf[AnyRef]
      catch {
        case _: NoSuchMethodException =>
          throw new IllegalStateException(s"the foreign class $name of $absClass has no public constructor without parameters")
        case e: InvocationTargetException if e.getCause ne null => throw e.getCause
      }
    val methods = cls.getMethods.iterator
      .filter(m => m.getDeclaringClass != classOf[Object] && !Modifier.isStatic(m.getModifiers))
      .toArray.groupBy(_.getName)
    new Foreign(absClass, impl, methods)
  }

  /** What [[call]] converts a result to: the ABS result type, as the generated code names it. */
  def kindOf(absType: String): String = absType match {
    case "Int" | "String" | "Bool" | "Float" | "Unit" => absType
    case _ => "Other"
  }

  private[lib] def toJava(v: Any, t: Class[_], what: => String): AnyRef = v match {
    case i: AbsInt if t == java.lang.Integer.TYPE || t == classOf[java.lang.Integer] =>
      try Integer.valueOf(i.toInt) catch { case _: ArithmeticException => throw new ArithmeticException(s"$what: $i does not fit an int") }
    case i: AbsInt if t == java.lang.Long.TYPE || t == classOf[java.lang.Long] =>
      try java.lang.Long.valueOf(i.toLong) catch { case _: ArithmeticException => throw new ArithmeticException(s"$what: $i does not fit a long") }
    case i: AbsInt if t == classOf[BigInteger] || t == classOf[Number] => i.big
    case other => other.asInstanceOf[AnyRef]
  }

  private[lib] def fromJava(r: Any, kind: String, what: => String): Any = kind match {
    case "Unit" => ()
    case "Int" => r match {
      case i: AbsInt => i
      case b: BigInteger => AbsInt(b)
      case n @ (_: java.lang.Integer | _: java.lang.Long | _: java.lang.Short | _: java.lang.Byte) => AbsInt(n.asInstanceOf[Number].longValue)
      case other => throw new ClassCastException(s"$what is ${describe(other)}, not an ABS Int")
    }
    case "Float" => r match {
      case d: java.lang.Double => d
      case f: java.lang.Float => java.lang.Double.valueOf(f.doubleValue)
      case other => throw new ClassCastException(s"$what is ${describe(other)}, not an ABS Float")
    }
    case "String" if !r.isInstanceOf[String] => throw new ClassCastException(s"$what is ${describe(r)}, not an ABS String")
    case "Bool" if !r.isInstanceOf[java.lang.Boolean] => throw new ClassCastException(s"$what is ${describe(r)}, not an ABS Bool")
    case _ => r
  }

  private def describe(v: Any): String = if (v == null) "null" else s"a ${v.getClass.getName}"
}
