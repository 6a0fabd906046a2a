package model

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrorClass classifies a provider failure so that callers can decide what
// to do without reading messages.
type ErrorClass string

// The error classes.
const (
	ClassRateLimit       ErrorClass = "rate_limit"       // 429: slow down and retry
	ClassOverloaded      ErrorClass = "overloaded"       // 529, 503: the provider is busy; retry
	ClassServer          ErrorClass = "server"           // other 5xx; retry
	ClassNetwork         ErrorClass = "network"          // connection refused or reset, timeouts; retry
	ClassContextOverflow ErrorClass = "context_overflow" // the request is too large for the model
	ClassAuth            ErrorClass = "auth"             // 401, 403: fix the credentials
	ClassBadRequest      ErrorClass = "bad_request"      // other 4xx: fix the request
	ClassStream          ErrorClass = "stream"           // the stream broke or was malformed after it began
)

// Error is a provider failure. Use [errors.As] to inspect it.
type Error struct {
	// Class classifies the failure.
	Class ErrorClass
	// Status is the HTTP status, or 0 when there was no response.
	Status int
	// Message is the provider's description of the failure.
	Message string
	// RetryAfter is the delay the provider asked for (Retry-After), or 0.
	RetryAfter time.Duration
	// Started reports that some of the response had already been streamed
	// when the failure happened, so the request must not be retried as is.
	Started bool

	err error
}

// Error returns a one-line description.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("model: ")
	b.WriteString(string(e.Class))
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.err }

// NewError returns an *Error of class c wrapping cause.
func NewError(c ErrorClass, status int, message string, cause error) *Error {
	return &Error{Class: c, Status: status, Message: message, err: cause}
}

// Retryable reports whether a request that failed with e may be sent again:
// the failure happened before any of the response was streamed and its class
// is rate limit, overload, server or network.
func (e *Error) Retryable() bool {
	if e.Started {
		return false
	}
	switch e.Class {
	case ClassRateLimit, ClassOverloaded, ClassServer, ClassNetwork:
		return true
	}
	return false
}

// ClassifyStatus returns the class of an HTTP error response with the given
// status and message. Context overflow is recognised by status 413 or by a
// message about the prompt or context being too long.
func ClassifyStatus(status int, message string) ErrorClass {
	if status == http.StatusRequestEntityTooLarge || IsOverflowMessage(message) {
		return ClassContextOverflow
	}
	switch {
	case status == http.StatusTooManyRequests:
		return ClassRateLimit
	case status == 529 || status == http.StatusServiceUnavailable:
		return ClassOverloaded
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ClassAuth
	case status == http.StatusRequestTimeout || status == http.StatusConflict || status == http.StatusTooEarly:
		return ClassServer // transient by convention; retried
	case status >= 500:
		return ClassServer
	case status >= 400:
		return ClassBadRequest
	}
	return ClassServer
}

// IsOverflowMessage reports whether a provider message says that the request
// exceeds the model's context window.
func IsOverflowMessage(message string) bool {
	m := strings.ToLower(message)
	// Anthropic: "prompt is too long", and "input length and `max_tokens`
	// exceed context limit"; OpenAI and most compatible servers: "maximum
	// context length"; llama.cpp: "exceeds the available context size";
	// Gemini: "exceeds the maximum number of tokens allowed".
	for _, s := range []string{"prompt is too long", "prompt too long", "context length", "context_length", "too many tokens",
		"maximum context", "context window", "context limit", "context size", "exceeds the maximum number of tokens"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// IsClass reports whether err is an *Error of class c.
func IsClass(err error, c ErrorClass) bool {
	var e *Error
	return errors.As(err, &e) && e.Class == c
}

// OverflowTokens returns the request's input tokens and the model's
// context limit as a context overflow's message states them, when it
// does: Anthropic's "input length and `max_tokens` exceed context limit:
// 188240 + 21333 > 200000" and "prompt is too long: 210000 tokens >
// 200000 maximum", OpenAI's "maximum context length is 8192 tokens …
// (5000 in the messages, …)" (the messages and functions: all the
// request but its completion) and "… your messages resulted in 31228
// tokens". It returns 0, 0 for any other error or message. The input is
// the provider's count: a caller can size the request's max_tokens to the
// room it leaves.
func (e *Error) OverflowTokens() (input, limit int) {
	if e.Class != ClassContextOverflow {
		return 0, 0
	}
	for _, p := range overflowPatterns() {
		m := p.re.FindStringSubmatch(e.Message)
		if m == nil {
			continue
		}
		in, err1 := strconv.Atoi(m[p.input])
		lim, err2 := strconv.Atoi(m[p.limit])
		var out int
		var err3 error
		if p.output > 0 {
			out, err3 = strconv.Atoi(m[p.output])
		}
		in -= out
		if err1 != nil || err2 != nil || err3 != nil || in <= 0 || lim <= 0 {
			return 0, 0
		}
		return in, lim
	}
	return 0, 0
}

// overflowPattern is a context overflow message that states the input's
// tokens (submatch input, less submatch output when that is not 0) and
// the limit (submatch limit).
type overflowPattern struct {
	re                   *regexp.Regexp
	input, limit, output int
}

// overflowPatterns returns the messages OverflowTokens reads, compiled
// on first use.
var overflowPatterns = sync.OnceValue(func() []overflowPattern {
	return []overflowPattern{
		{regexp.MustCompile(`exceed context limit: (\d+) \+ \d+ > (\d+)`), 1, 2, 0},
		{regexp.MustCompile(`prompt is too long: (\d+) tokens > (\d+) maximum`), 1, 2, 0},
		// All the request but its completion is input: the messages and
		// the functions (tool definitions) when it says them.
		{regexp.MustCompile(`maximum context length is (\d+) tokens\. However, you requested (\d+) tokens \((?:\d+ in the [a-z ]+, )*(\d+) in the completion\)`), 2, 1, 3},
		{regexp.MustCompile(`maximum context length is (\d+) tokens\. However, you requested \d+ tokens \((\d+) in the messages`), 2, 1, 0},
		{regexp.MustCompile(`maximum context length is (\d+) tokens\. However, your messages resulted in (\d+) tokens`), 2, 1, 0},
	}
})
