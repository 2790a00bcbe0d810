package agent

import (
	"sync"

	"github.com/cairn-dev/cairn/core"
)

// bus delivers a session's events to every subscriber in one total order.
// Publishing never blocks on a subscriber: each has its own queue drained by
// its own goroutine, so a slow reader delays only itself and loses nothing.
type bus struct {
	mu   sync.Mutex
	subs map[*subscriber]struct{}
}

type subscriber struct {
	mu     sync.Mutex
	cond   *sync.Cond
	queue  []core.Event
	closed bool
	out    chan core.Event
	done   chan struct{}
}

func newBus() *bus { return &bus{subs: map[*subscriber]struct{}{}} }

// publish hands e to every subscriber. The bus lock makes the order the same
// for all of them.
func (b *bus) publish(e core.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		s.mu.Lock()
		s.queue = append(s.queue, e)
		s.mu.Unlock()
		s.cond.Signal()
	}
}

// subscribe returns a channel of every event published from now on and a
// function that stops delivery and closes the channel.
func (b *bus) subscribe() (<-chan core.Event, func()) {
	sub := b.follow()
	return sub.events, sub.stop
}

// follow is subscribe with access to the subscriber, for Mark.
func (b *bus) follow() *Subscription {
	s := &subscriber{out: make(chan core.Event), done: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	go s.deliver()
	var once sync.Once
	cancel := func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.subs, s)
			b.mu.Unlock()
			s.mu.Lock()
			s.closed = true
			s.mu.Unlock()
			s.cond.Signal()
			close(s.done)
		})
	}
	return &Subscription{events: s.out, stop: cancel, bus: b, sub: s}
}

// deliver moves queued events to the subscriber's channel until cancelled.
func (s *subscriber) deliver() {
	defer close(s.out)
	for {
		s.mu.Lock()
		for len(s.queue) == 0 && !s.closed {
			s.cond.Wait()
		}
		if s.closed {
			s.mu.Unlock()
			return
		}
		batch := s.queue
		s.queue = nil
		s.mu.Unlock()
		for _, e := range batch {
			select {
			case s.out <- e:
			case <-s.done:
				return
			}
		}
	}
}

// Subscription is one subscriber's ordered view of a session's events,
// with a way to place values of its own among them. See Session.Follow.
type Subscription struct {
	events <-chan core.Event
	stop   func()
	bus    *bus
	sub    *subscriber
}

// Events delivers the session's events, and this subscription's marks, in
// order.
func (s *Subscription) Events() <-chan core.Event { return s.events }

// Stop ends delivery and closes Events.
func (s *Subscription) Stop() { s.stop() }

// Mark places m in this subscription's stream after every event the
// session published before the call and before every event it publishes
// after: a front end orders its own output (a command's response after the
// events the command caused) without putting anything in the session's
// stream. No other subscriber sees m.
func (s *Subscription) Mark(m core.Event) {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	s.sub.mu.Lock()
	s.sub.queue = append(s.sub.queue, m)
	s.sub.mu.Unlock()
	s.sub.cond.Signal()
}
