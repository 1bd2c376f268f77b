package dev.earshot;

import dev.earshot.errors.EarshotException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Buffers a high-volume sender's events and sends them in batches, by size or
 * after a delay, from one sender thread. It is thread-safe. Every event added
 * is accepted, answered as a duplicate or dead letter (onResult), or reported
 * to onError and by {@link #flush()} or {@link #close()}: never dropped silently.
 */
public final class Batcher implements AutoCloseable {
  private final IngestService ingest;
  private final BatcherOptions options;
  private final ScheduledExecutorService timer;
  private final Thread sender;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private List<Event> buffer = new ArrayList<>();
  private final ArrayDeque<List<Event>> queue = new ArrayDeque<>();
  private int pending;
  private long queued;
  private long sent;
  private EarshotException failure;
  private boolean closed;
  private ScheduledFuture<?> delayed;

  Batcher(IngestService ingest, BatcherOptions options) {
    this.ingest = ingest;
    this.options = options;
    this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> daemon(runnable, "earshot-batcher-timer"));
    this.sender = daemon(this::send, "earshot-batcher-sender");
    sender.start();
  }

  private static Thread daemon(Runnable runnable, String name) {
    Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }

  /**
   * Buffers an event. While maxPending events wait or are in flight it blocks
   * until there is room; an interrupt ends the wait with an EarshotException
   * and the event is not added.
   */
  public void add(Event event) {
    lock.lock();
    try {
      while (pending >= options.maxPending() && !closed) awaitChange();
      if (closed) throw new IllegalStateException("earshot: the batcher is closed");
      buffer.add(event);
      pending++;
      if (buffer.size() >= options.maxEvents()) {
        cut();
      } else if (buffer.size() == 1) {
        delayed = timer.schedule(this::cutLocked, options.maxDelay().toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Buffers events, in order; see {@link #add(Event)}. */
  public void addAll(List<Event> events) {
    for (Event event : events) add(event);
  }

  private void awaitChange() {
    try {
      changed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EarshotException("earshot: interrupted while the batcher was full", e);
    }
  }

  private void cutLocked() {
    lock.lock();
    try {
      cut();
    } finally {
      lock.unlock();
    }
  }

  /** Hands the buffer to the sender; the caller holds the lock. */
  private void cut() {
    if (delayed != null) {
      delayed.cancel(false);
      delayed = null;
    }
    if (buffer.isEmpty() || closed) return;
    queue.add(buffer);
    buffer = new ArrayList<>();
    queued++;
    changed.signalAll();
  }

  private void send() {
    for (List<Event> batch = next(); batch != null; batch = next()) {
      EarshotException error = null;
      try {
        options.onResult().accept(batch, ingest.send(batch, options.provider()));
      } catch (EarshotException e) {
        error = e;
        options.onError().accept(batch, e);
      }
      lock.lock();
      try {
        pending -= batch.size();
        sent++;
        if (error != null) {
          if (failure == null) failure = error;
          else failure.addSuppressed(error);
        }
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** The next batch to send; null once the batcher is closed and drained. */
  private List<Event> next() {
    lock.lock();
    try {
      while (queue.isEmpty()) {
        if (closed) return null;
        changed.awaitUninterruptibly();
      }
      return queue.poll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Sends every event added so far and waits for the answers; throws the
   * failure of a batch that could not be sent since the last flush.
   */
  public void flush() {
    lock.lock();
    try {
      cut();
      long target = queued;
      while (sent < target) awaitChange();
      EarshotException failed = failure;
      failure = null;
      if (failed != null) throw failed;
    } finally {
      lock.unlock();
    }
  }

  /** Flushes, then stops; {@link #add} throws after it. */
  @Override
  public void close() {
    try {
      flush();
    } finally {
      lock.lock();
      try {
        if (!closed) {
          cut();
          closed = true;
          changed.signalAll();
        }
      } finally {
        lock.unlock();
      }
      timer.shutdownNow();
      try {
        sender.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    lock.lock();
    try {
      EarshotException failed = failure;
      failure = null;
      if (failed != null) throw failed;
    } finally {
      lock.unlock();
    }
  }
}
