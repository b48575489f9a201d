package access

import "io"

// unreadBytes is what a reader whose bytes arrive in messages (ARDP
// packets, WAIS document chunks) has received and not yet handed out:
// done says the last message has come, and err is the first failure,
// which every later read returns.
type unreadBytes struct {
	unread []byte
	done   bool
	err    error
}

// read copies unread bytes into p, calling more for the next message while
// there are none; io.EOF once the last message is done and read.
func (q *unreadBytes) read(p []byte, more func() error) (int, error) {
	for len(q.unread) == 0 {
		if q.err != nil {
			return 0, q.err
		}
		if q.done {
			return 0, io.EOF
		}
		if err := more(); err != nil {
			q.err = err
			return 0, err
		}
	}
	n := copy(p, q.unread)
	q.unread = q.unread[n:]
	return n, nil
}
