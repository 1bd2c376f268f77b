package earshot

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrBatcherClosed answers Add after Close.
var ErrBatcherClosed = errors.New("earshot: the batcher is closed")

// BatcherOptions configures Ingest.Batcher; zero values take the defaults.
type BatcherOptions struct {
	// MaxEvents sends a batch once this many events wait (default and at most 500).
	MaxEvents int
	// MaxDelay sends the waiting events this long after the first of them arrived (default 1 s).
	MaxDelay time.Duration
	// MaxPending is how many events may wait or be in flight before Add blocks (default 10,000).
	MaxPending int
	// OnResult receives each batch's answer.
	OnResult func(events []Event, result *IngestResult)
	// OnError receives each batch that could not be sent, after its retries.
	OnError func(events []Event, err error)
	// Ingest options for every batch (the provider's name).
	Ingest []IngestOption
}

// Batcher buffers a high-volume sender's events and sends them in batches,
// by size or after a delay. It is safe for concurrent use. Every event added
// is accepted, answered as a duplicate or dead letter (OnResult), or
// reported to OnError and by Flush or Close: never dropped silently.
type Batcher struct {
	ingest  *IngestService
	options BatcherOptions
	stopped chan struct{}

	mu      sync.Mutex
	buffer  []Event
	queue   [][]Event // batches cut, waiting for the sender
	pending int
	queued  uint64 // batches handed to the sender
	sent    uint64 // batches the sender has finished
	failure error  // batch failures since the last Flush
	closed  bool
	timer   *time.Timer
	changed chan struct{} // closed and replaced whenever pending or sent moves
}

// Batcher starts a batcher; Close it to send what it holds and stop.
func (s *IngestService) Batcher(options BatcherOptions) *Batcher {
	if options.MaxEvents <= 0 || options.MaxEvents > MaxBatch {
		options.MaxEvents = MaxBatch
	}
	if options.MaxDelay <= 0 {
		options.MaxDelay = time.Second
	}
	if options.MaxPending <= 0 {
		options.MaxPending = 10_000
	}
	b := &Batcher{
		ingest:  s,
		options: options,
		stopped: make(chan struct{}),
		changed: make(chan struct{}),
	}
	go b.send()
	return b
}

// Add buffers events. While MaxPending events wait or are in flight it
// blocks, until there is room or ctx ends (then it answers ctx's error and
// the events not yet added are not).
func (b *Batcher) Add(ctx context.Context, events ...Event) error {
	for _, event := range events {
		if err := b.add(ctx, event); err != nil {
			return err
		}
	}
	return nil
}

func (b *Batcher) add(ctx context.Context, event Event) error {
	b.mu.Lock()
	for b.pending >= b.options.MaxPending && !b.closed {
		changed := b.changed
		b.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		}
		b.mu.Lock()
	}
	defer b.mu.Unlock()
	if b.closed {
		return ErrBatcherClosed
	}
	b.buffer = append(b.buffer, event)
	b.pending++
	if len(b.buffer) >= b.options.MaxEvents {
		b.cut()
	} else if len(b.buffer) == 1 {
		b.timer = time.AfterFunc(b.options.MaxDelay, b.flushBuffer)
	}
	return nil
}

func (b *Batcher) flushBuffer() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cut()
}

// cut hands the buffer to the sender; the caller holds mu.
func (b *Batcher) cut() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if len(b.buffer) == 0 || b.closed {
		return
	}
	b.queue = append(b.queue, b.buffer)
	b.buffer = nil
	b.queued++
	b.signal()
}

// signal wakes whoever waits on a change; the caller holds mu.
func (b *Batcher) signal() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// next waits for a batch to send; nil once the batcher is closed and drained.
func (b *Batcher) next() []Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.queue) == 0 {
		if b.closed {
			return nil
		}
		changed := b.changed
		b.mu.Unlock()
		<-changed
		b.mu.Lock()
	}
	batch := b.queue[0]
	b.queue = b.queue[1:]
	return batch
}

func (b *Batcher) send() {
	defer close(b.stopped)
	for batch := b.next(); batch != nil; batch = b.next() {
		result, err := b.ingest.Send(context.Background(), batch, b.options.Ingest...)
		if err != nil && b.options.OnError != nil {
			b.options.OnError(batch, err)
		} else if err == nil && b.options.OnResult != nil {
			b.options.OnResult(batch, result)
		}
		b.mu.Lock()
		b.pending -= len(batch)
		b.sent++
		if err != nil {
			b.failure = errors.Join(b.failure, err)
		}
		b.signal()
		b.mu.Unlock()
	}
}

// Flush sends every event added so far and waits for the answers; it
// answers the errors of the batches that failed since the last Flush.
func (b *Batcher) Flush(ctx context.Context) error {
	b.mu.Lock()
	b.cut()
	target := b.queued
	for b.sent < target {
		changed := b.changed
		b.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		}
		b.mu.Lock()
	}
	failure := b.failure
	b.failure = nil
	b.mu.Unlock()
	return failure
}

// Close flushes, then stops the batcher; Add answers ErrBatcherClosed after it.
func (b *Batcher) Close(ctx context.Context) error {
	err := b.Flush(ctx)
	b.mu.Lock()
	if !b.closed {
		b.cut()
		b.closed = true
		b.signal()
	}
	b.mu.Unlock()
	select {
	case <-ctx.Done():
		return errors.Join(err, ctx.Err())
	case <-b.stopped:
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return errors.Join(err, b.failure)
}
