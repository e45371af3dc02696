package cogs.savina.concdict

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.concdict.Dictionary.{Read, Write}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Concurrent dictionary on Pekko with Savina's protocol: each reply triggers the worker's next request; the master ends the dictionary when all workers are done. */
object DictionaryPekko {

  private case object DoWork
  private final class WriteMsg(val sender: ActorRef, val key: Int, val value: Int)
  private final class ReadMsg(val sender: ActorRef, val key: Int)
  private final class ResultMsg(val value: Integer)
  private final class EndWork(val replies: Long, val reads: Long)
  private final class EndDict(val master: ActorRef)
  private final class Size(val size: Int)

  def run(system: ActorSystem, p: Params): DictAnswer = {
    val run = new PekkoRun[DictAnswer](system, Dictionary.name)
    run.actorOf(Props(new Master(run, p)))
    run.await()
  }

  private final class Master(run: PekkoRun[DictAnswer], p: Params) extends BenchActor(run) {
    private[this] val dict = run.actorOf(Props(new DictActor(run, Dictionary.initial(p.dataLimit))))
    private[this] var ended = 0
    private[this] var replies = 0L
    private[this] var reads = 0L

    for (i <- 0 until p.workers) run.actorOf(Props(new Worker(run, i, p, self, dict))) ! DoWork

    def receive: Receive = {
      case e: EndWork =>
        ended += 1
        replies += e.replies
        reads += e.reads
        if (ended == p.workers) dict ! new EndDict(self)
      case s: Size =>
        run.answer(DictAnswer(replies, s.size, reads))
        exit()
    }
  }

  private final class Worker(run: PekkoRun[DictAnswer], id: Int, p: Params, master: ActorRef, dict: ActorRef) extends BenchActor(run) {
    private[this] val requests = new Dictionary.Requests(p, id)
    private[this] var sent = 0
    private[this] var lastRead = -1 // the key of the read in flight, or -1 after a write
    private[this] var replies = 0L
    private[this] var reads = 0L

    def receive: Receive = {
      case DoWork => next()
      case r: ResultMsg =>
        replies += 1
        if (lastRead >= 0) reads += Dictionary.initialRead(p, lastRead, r.value)
        next()
    }

    private def next(): Unit =
      if (sent < p.messagesPerWorker) {
        sent += 1
        requests.next() match {
          case Write(k, v) => lastRead = -1; dict ! new WriteMsg(self, k, v)
          case Read(k)     => lastRead = k; dict ! new ReadMsg(self, k)
        }
      } else {
        master ! new EndWork(replies, reads)
        exit()
      }
  }

  private final class DictActor(run: PekkoRun[DictAnswer], initial: java.util.HashMap[Integer, Integer]) extends BenchActor(run) {
    private[this] val map = new java.util.HashMap[Integer, Integer](initial)

    def receive: Receive = {
      case w: WriteMsg =>
        map.put(w.key, w.value)
        w.sender ! new ResultMsg(w.value)
      case r: ReadMsg => r.sender ! new ResultMsg(map.get(r.key))
      case e: EndDict =>
        e.master ! new Size(map.size)
        exit()
    }
  }
}
