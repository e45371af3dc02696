package cogs.distributed

import cogs.runtime._
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/** An object with overloads, for the method table. */
final class Overloaded extends ActiveObject {
  def f(x: Int): Proc[String] = Proc.done(s"int $x")
  def f(x: String): Proc[String] = Proc.done(s"string $x")
  def f(x: Int, y: Int): Proc[String] = Proc.done(s"two ${x + y}")
  def plain(x: Long): Long = x + 1
  def nothing(): Unit = ()
}

/** The method table of a class: indexes fixed once, names resolved through it, overloads by argument type, errors named. */
class MethodTableTest {

  @Test def indexesAndNamesReachTheSameMethods(): Unit = {
    val t = MethodTable.of(classOf[Overloaded])
    assertSame(t, MethodTable.of(classOf[Overloaded]))
    // Groups by name and arity, sorted: the caller's copy of the names gives the same indexes.
    assertEquals(Vector("f/1", "f/2", "nothing/0", "plain/1"), t.names.filter(n => Set("f", "nothing", "plain")(n.takeWhile(_ != '/'))))
    val callers = new RemoteRef.Methods(t.names)
    for (n <- t.names) {
      val (name, arity) = (n.takeWhile(_ != '/'), n.dropWhile(_ != '/').tail.toInt)
      assertEquals(t.indexOf(name, arity), callers.indexOf(name, arity), n)
      assertEquals(name, t.nameOf(t.indexOf(name, arity)))
    }
    assertEquals(-1, callers.indexOf("f", 3))
    assertEquals(-1, callers.indexOf("g", 0))
    def args(xs: Any*): Array[AnyRef] = xs.map(_.asInstanceOf[AnyRef]).toArray
    val rt = CogRuntime()
    try {
      val o = rt.spawn(new Overloaded)
      def call(i: Int, name: String, a: Array[AnyRef]): Any = rt.run(t.invoke(o, i, name, a))
      assertEquals("int 4", call(t.indexOf("f", 1), "f", args(4)))
      assertEquals("string x", call(t.indexOf("f", 1), "f", args("x")))
      assertEquals("two 5", call(-1, "f", args(2, 3)))
      assertEquals(8L, call(t.indexOf("plain", 1), "plain", args(7L)))
      assertEquals(null, call(-1, "nothing", args()))
      val e = assertThrows(classOf[NoSuchMethodException], () => t.invoke(o, -1, "f", args(1.5d)))
      assertEquals("Overloaded has no public method f(Double)", e.getMessage)
      val m = assertThrows(classOf[NoSuchMethodException], () => t.invoke(o, -1, "missing", args(1)))
      assertEquals("Overloaded has no public method missing(Integer)", m.getMessage)
    } finally rt.close()
  }
}
