package cogs.distributed.abs

import cogs.runtime.{Active, Fut}
import java.io.{ByteArrayInputStream, ByteArrayOutputStream, InvalidClassException, NotSerializableException, ObjectInputFilter,
  ObjectInputStream, ObjectOutputStream, ObjectStreamClass}
import org.apache.pekko.actor.ExtendedActorSystem
import org.apache.pekko.serialization.Serializer

/**
 * The values of an ABS model between nodes: numbers (`AbsInt`, `AbsRat`), data types (case
 * classes and objects, exceptions), lists, sets, maps, and object references inside any of them;
 * and the policy maker of a `[Scheduler: ..]` object made on another node ([[PolicyMaker]]).
 *
 * Why Java object streams and not Jackson: ABS values are generic (`Just(x)` with any `x`, lists
 * of anything), and Jackson needs the static type or type tags to read them back, while every
 * value class absc generates or the library defines is already `Serializable` (case classes) and
 * on every node's class path (each node runs the same compiled model). Object streams are the
 * JDK's own, maintained with it. Why this is safe enough: reading is limited by an
 * `ObjectInputFilter` to the ABS library, the model's package (`absmodel`), Scala's library and
 * `java.lang`/`java.math`, so no gadget class of another library can be instantiated; Pekko's
 * general Java serializer stays off. Object references do not travel as objects: an `Active` is
 * replaced by a [[RefToken]] on writing and by the local object or a proxy on reading; a future
 * is refused (it cannot travel), naming its class.
 */
private[distributed] final class AbsValueSerializer(system: ExtendedActorSystem) extends Serializer {
  def identifier: Int = 0x0C065AB5
  def includeManifest: Boolean = false

  def toBinary(o: AnyRef): Array[Byte] = {
    val placement = AbsPlacement.of(system)
    val bytes = new ByteArrayOutputStream
    val out = new ObjectOutputStream(bytes) {
      enableReplaceObject(true)
      override def replaceObject(x: AnyRef): AnyRef = x match {
        case a: Active => placement.tokenFor(a)
        // Named by the API type, not the class: since a call's process is its own future, the
        // runtime class would say Process, which a user never wrote.
        case _: Fut[_] => throw new NotSerializableException("cogs.runtime.Fut (a future cannot travel to another node)")
        case _         => x
      }
    }
    out.writeObject(o)
    out.close()
    bytes.toByteArray
  }

  def fromBinary(bytes: Array[Byte], manifest: Option[Class[_]]): AnyRef = {
    val placement = AbsPlacement.of(system)
    val in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
      enableResolveObject(true)
      setObjectInputFilter(AbsValueSerializer.Filter)
      override def resolveClass(d: ObjectStreamClass): Class[_] =
        try Class.forName(d.getName, false, placement.loader)
        catch { case _: ClassNotFoundException => super.resolveClass(d) }
      override def resolveObject(x: AnyRef): AnyRef = x match {
        case t: RefToken => placement.resolve(t)
        case _           => x
      }
    }
    try in.readObject()
    catch {
      case e: InvalidClassException =>
        throw new IllegalArgumentException(s"a value of class ${e.classname} may not travel between nodes (${e.getMessage})", e)
    }
  }
}

private[distributed] object AbsValueSerializer {
  /**
   * The class loader of the model run by the node of `system` (its AbsPlacement's), or null if
   * the node runs no ABS model (or has not registered it yet): where [[cogs.distributed.Values]]
   * finds the model's data classes named in a block.
   */
  private[distributed] def modelLoader(system: org.apache.pekko.actor.ActorSystem): ClassLoader = {
    val f = AbsPlacement.registry.get(system)
    if ((f eq null) || !f.isDone || f.isCompletedExceptionally) null else f.join().loader
  }

  private[this] val patterns = ObjectInputFilter.Config.createFilter(
    "cogs.absc.lib.*;cogs.distributed.abs.RefToken;cogs.distributed.abs.PolicyMaker;java.lang.invoke.SerializedLambda;" +
      "absmodel.**;scala.**;java.lang.*;java.math.*;!*")
  // The rejected class goes into the exception's `classname` (the JDK's message does not name it).
  // The JDK also filters what resolveObject returns: the proxy or the local object of a reference
  // (neither is Serializable, so neither can come out of the stream itself; a proxy class in the
  // stream would need its handler read, and RemoteObject is not Serializable).
  private[abs] val Filter: ObjectInputFilter = (info: ObjectInputFilter.FilterInfo) => {
    val c = info.serialClass
    val s =
      if ((c ne null) && (java.lang.reflect.Proxy.isProxyClass(c) || classOf[cogs.runtime.ActiveObject].isAssignableFrom(c)))
        ObjectInputFilter.Status.ALLOWED
      else patterns.checkInput(info)
    if (s == ObjectInputFilter.Status.REJECTED && (info.serialClass ne null))
      throw new InvalidClassException(info.serialClass.getName, "not one of the ABS library, the model (absmodel), Scala, java.lang, java.math")
    s
  }
}
