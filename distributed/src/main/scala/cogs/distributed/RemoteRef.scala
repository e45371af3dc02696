package cogs.distributed

import cogs.runtime.Fut
import org.apache.pekko.actor.Address

/**
 * A reference to an active object on another node (or on this one, through the network layer
 * all the same), made by [[Node.create]]. `send` is the remote `o!m(..)`: it returns at once with
 * a future of the caller's runtime, which a process `await`s (suspends, no thread held) or `get`s
 * (blocks its COG), as for a local call. Calls sent through the references of one node, from one
 * thread or one process, to one object start in the order they were sent.
 *
 * The method is found by name and number of arguments on the object's class (public, returning a
 * `Proc` or a plain value), so a misspelt name fails the call (with the name in the error), not
 * the compilation. A reference made by [[Node.create]] learnt the class's method table from the
 * creation's answer and sends each call with the method's index in it; others send the name,
 * which the remote node looks up in the same table (no reflection per call either way). A reference is itself a value that a call can carry, as an argument or a
 * result (not inside a `Wire` class or a collection: Jackson does not know it): the receiving
 * node gets a reference of its own to the same object, so node A can hand node C a reference to
 * an object on node B. Two references to
 * the same object are equal. [[Node.export]] makes a reference to a local object.
 */
final class RemoteRef private[distributed] (owner: Node, val node: Address, val objectId: Long, val className: String,
    methods: RemoteRef.Methods = null) {

  /** The index of `method` with `arity` arguments in the object's method table, if this reference knows it (made by `create`), else -1. */
  private[distributed] def methodIndex(method: String, arity: Int): Int = if (methods eq null) -1 else methods.indexOf(method, arity)

  /** Call `method(args..)` on the remote object; the future fails with the remote exception's class and message. */
  @scala.annotation.varargs
  def send[A](method: String, args: Any*): Fut[A] = owner.call[A](this, method, args)

  /**
   * A one-way call of `method(args..)`: no future, no reply, no entry waiting for one (the remote
   * `o!m(..);` whose future nobody reads). It keeps its place among the calls and one-way calls
   * sent before it from the same thread or process. An argument that cannot be serialised throws
   * here ([[NotSerializableValueException]]); a failure of the remote method is the remote
   * runtime's (counted and reported there, as for a local `Cogs.tell`); a call to a node that was
   * lost is dropped.
   */
  @scala.annotation.varargs
  def tell(method: String, args: Any*): Unit = owner.tell(this, method, args)

  override def equals(o: Any): Boolean = o match {
    case r: RemoteRef => r.objectId == objectId && r.node == node
    case _            => false
  }
  override def hashCode: Int = node.hashCode * 31 + java.lang.Long.hashCode(objectId)

  override def toString: String = s"$className#$objectId@$node"
}

private[distributed] object RemoteRef {
  /** A method table as a caller knows it (`MethodTable.names`: "name/arity" in index order): name and arity to index. */
  final class Methods(names: Seq[String]) {
    private[this] val byName = new java.util.HashMap[String, Array[Int]]
    names.zipWithIndex.foreach { case (n, i) =>
      val slash = n.lastIndexOf('/')
      val name = n.substring(0, slash)
      val arity = n.substring(slash + 1).toInt
      val old = byName.getOrDefault(name, Array.empty[Int])
      val arr = if (old.length > arity) old else old ++ Array.fill(arity + 1 - old.length)(-1)
      arr(arity) = i
      byName.put(name, arr)
    }
    def indexOf(name: String, arity: Int): Int = {
      val a = byName.get(name)
      if ((a eq null) || arity >= a.length) -1 else a(arity)
    }
  }
}
