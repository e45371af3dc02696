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
 * the compilation. A reference is itself a value that a call can carry, as an argument or a
 * result (not inside a `Wire` class or a collection: Jackson does not know it): the receiving
 * node gets a reference of its own to the same object, so node A can hand node C a reference to
 * an object on node B. Two references to
 * the same object are equal. [[Node.export]] makes a reference to a local object.
 */
final class RemoteRef private[distributed] (owner: Node, val node: Address, val objectId: Long, val className: String) {

  /** Call `method(args..)` on the remote object; the future fails with the remote exception's class and message. */
  @scala.annotation.varargs
  def send[A](method: String, args: Any*): Fut[A] = owner.call[A](this, method, args)

  override def equals(o: Any): Boolean = o match {
    case r: RemoteRef => r.objectId == objectId && r.node == node
    case _            => false
  }
  override def hashCode: Int = node.hashCode * 31 + java.lang.Long.hashCode(objectId)

  override def toString: String = s"$className#$objectId@$node"
}
