package cogs.savina.concsll

import cogs.savina.{BenchActor, PekkoRun}
import cogs.savina.concsll.SortedList.{Contains, LinkedIntList, Size, Write}
import org.apache.pekko.actor.{ActorRef, ActorSystem, Props}

/** Sorted linked list on Pekko with Savina's protocol: each reply triggers the worker's next request; the master ends the list when all workers are done. */
object SortedListPekko {

  private case object DoWork
  private final class Request(val sender: ActorRef, val kind: Int, val value: Int)
  private final class ResultMsg(val value: Int)
  private final class EndWork(val replies: Long)
  private final class EndList(val master: ActorRef)
  private final class Final(val size: Int, val digest: Long)

  def run(system: ActorSystem, p: Params): ListAnswer = {
    val run = new PekkoRun[ListAnswer](system, SortedList.name)
    run.actorOf(Props(new Master(run, p)))
    run.await()
  }

  private final class Master(run: PekkoRun[ListAnswer], p: Params) extends BenchActor(run) {
    private[this] val list = run.actorOf(Props(new ListActor(run)))
    private[this] var ended = 0
    private[this] var replies = 0L

    for (i <- 0 until p.workers) run.actorOf(Props(new Worker(run, i, p, self, list))) ! DoWork

    def receive: Receive = {
      case e: EndWork =>
        ended += 1
        replies += e.replies
        if (ended == p.workers) list ! new EndList(self)
      case f: Final =>
        run.answer(ListAnswer(replies, f.size, f.digest))
        exit()
    }
  }

  private final class Worker(run: PekkoRun[ListAnswer], id: Int, p: Params, master: ActorRef, list: ActorRef) extends BenchActor(run) {
    private[this] val requests = new SortedList.Requests(p, id)
    private[this] var sent = 0
    private[this] var replies = 0L

    def receive: Receive = {
      case DoWork => next()
      case _: ResultMsg =>
        replies += 1
        next()
    }

    private def next(): Unit =
      if (sent < p.messagesPerWorker) {
        sent += 1
        val (kind, v) = requests.next()
        list ! new Request(self, kind, v)
      } else {
        master ! new EndWork(replies)
        exit()
      }
  }

  private final class ListActor(run: PekkoRun[ListAnswer]) extends BenchActor(run) {
    private[this] val list = new LinkedIntList

    def receive: Receive = {
      case r: Request =>
        val answer = r.kind match {
          case Write    => list.add(r.value); r.value
          case Size     => list.size
          case Contains => if (list.contains(r.value)) 1 else 0
        }
        r.sender ! new ResultMsg(answer)
      case e: EndList =>
        e.master ! new Final(list.size, list.digest)
        exit()
    }
  }
}
