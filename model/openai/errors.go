package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
)

// maxMessage bounds the length of an error message taken from a response
// body that is not the API's JSON (an HTML page from a proxy, say).
const maxMessage = 512

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// APIError is the error object an OpenAI-compatible server sent, either as
// an HTTP error response or inside the stream. The *[model.Error] that
// [Provider.Stream] yields wraps it; reach it with errors.As.
type APIError struct {
	// Status is the HTTP status of the response, or 0 for an error sent
	// inside a stream.
	Status int
	// Message is the server's description of the failure.
	Message string
	// Type is the error type, such as "invalid_request_error"; "" if none.
	Type string
	// Code is the error code, such as "context_length_exceeded" or a
	// status number; "" if none.
	Code string
	// Param names the request parameter at fault; "" if none.
	Param string
}

// Error returns a one-line description.
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("openai: ")
	if e.Status != 0 {
		fmt.Fprintf(&b, "HTTP %d", e.Status)
	} else {
		b.WriteString("stream error")
	}
	if e.Code != "" {
		fmt.Fprintf(&b, " (%s)", e.Code)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// statusError maps an HTTP error response: classified by
// model.ClassifyStatus, with two codes taking precedence:
// context_length_exceeded is an overflow whatever the status, and
// insufficient_quota (a 429 that waiting does not cure) a bad request.
func (p *Provider) statusError(resp *http.Response) *model.Error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	ae := parseErrorBody(raw)
	ae.Status = resp.StatusCode
	if ae.Message == "" {
		ae.Message = bounded(raw)
	}
	if ae.Message == "" {
		ae.Message = http.StatusText(resp.StatusCode)
	}
	class := model.ClassifyStatus(resp.StatusCode, ae.Message)
	switch ae.Code {
	case "context_length_exceeded":
		class = model.ClassContextOverflow
	case "insufficient_quota":
		class = model.ClassBadRequest
	}
	e := model.NewError(class, resp.StatusCode, ae.Message, ae)
	e.RetryAfter = retryAfter(resp.Header, p.now())
	return e
}

// eventError maps an error object received inside a 200 stream. It is
// classified by the status its code or type stands for; without one it is
// ClassStream (or ClassContextOverflow when the message says so).
func eventError(raw []byte, started bool) *model.Error {
	ae := parseErrorObject(raw)
	if ae.Message == "" {
		ae.Message = bounded(raw)
	}
	status := errorStatus(ae)
	class := model.ClassStream
	switch {
	case ae.Code == "context_length_exceeded" || model.IsOverflowMessage(ae.Message):
		class = model.ClassContextOverflow
	case status != 0:
		class = model.ClassifyStatus(status, ae.Message)
	}
	e := model.NewError(class, status, ae.Message, ae)
	e.Started = started
	return e
}

// jsonReplyError maps a 200 response that is JSON rather than an event
// stream: an error object in it is mapped as an in-stream error, anything
// else (a server that ignored "stream": true) is ClassStream.
func jsonReplyError(resp *http.Response) *model.Error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	var probe struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &probe) == nil && len(probe.Error) > 0 && string(probe.Error) != "null" {
		return eventError(probe.Error, false)
	}
	return model.NewError(model.ClassStream, 0, "server answered with JSON instead of an event stream", nil)
}

// errorStatus returns the HTTP status an error object's code or type
// stands for, or 0.
func errorStatus(ae *APIError) int {
	if n, err := strconv.Atoi(ae.Code); err == nil && n >= 400 && n <= 599 {
		return n
	}
	for _, s := range []string{ae.Code, ae.Type} {
		switch s {
		case "rate_limit_exceeded", "rate_limit_error", "requests", "tokens":
			return http.StatusTooManyRequests
		case "server_error", "api_error", "internal_error", "InternalServerError":
			return http.StatusInternalServerError
		case "overloaded_error", "service_unavailable", "engine_overloaded":
			return http.StatusServiceUnavailable
		case "invalid_request_error", "BadRequestError":
			return http.StatusBadRequest
		case "authentication_error", "invalid_api_key":
			return http.StatusUnauthorized
		case "context_length_exceeded":
			return http.StatusBadRequest
		}
	}
	return 0
}

// parseErrorBody reads the error of an error response body in the shapes
// servers use: {"error":{"message":…,"type":…,"code":…}} (OpenAI),
// {"error":"…"}, {"message":…,"type":…,"code":…} (vLLM) or
// {"detail":"…"}. It returns an empty APIError for anything else.
func parseErrorBody(raw []byte) *APIError {
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &body) != nil {
		return &APIError{}
	}
	if len(body.Error) > 0 && string(body.Error) != "null" {
		return parseErrorObject(body.Error)
	}
	return parseErrorObject(raw)
}

// parseErrorObject reads an error object, or a JSON string taken as the
// message. It returns an empty APIError for anything else.
func parseErrorObject(raw []byte) *APIError {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &APIError{Message: s}
	}
	var obj struct {
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
		Type    json.RawMessage `json:"type"`
		Code    json.RawMessage `json:"code"`
		Param   json.RawMessage `json:"param"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return &APIError{}
	}
	ae := &APIError{
		Message: scalar(obj.Message),
		Type:    scalar(obj.Type),
		Code:    scalar(obj.Code),
		Param:   scalar(obj.Param),
	}
	if ae.Message == "" {
		ae.Message = scalar(obj.Detail)
	}
	return ae
}

// scalar returns a JSON string's value or a JSON number's text, and "" for
// anything else.
func scalar(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// bounded returns raw as a message of at most maxMessage bytes of valid
// UTF-8 on one line.
func bounded(raw []byte) string {
	msg := strings.Join(strings.Fields(string(raw)), " ")
	if len(msg) > maxMessage {
		msg = strings.ToValidUTF8(msg[:maxMessage], "") + "…"
	}
	return strings.ToValidUTF8(msg, "\uFFFD")
}

// retryAfter returns the delay a response asks for: retry-after-ms
// (milliseconds, as OpenAI sends it), else Retry-After (seconds or an HTTP
// date, relative to now). It returns 0 when neither is usable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(strings.TrimSpace(h.Get("Retry-After-Ms")), 64); err == nil {
		if d, ok := seconds(ms / 1000); ok {
			return d
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		d, _ := seconds(secs)
		return d
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// seconds converts a positive, finite number of seconds to a duration.
func seconds(s float64) (time.Duration, bool) {
	if !(s > 0) || s > math.MaxInt64/float64(time.Second) {
		return 0, false
	}
	return time.Duration(s * float64(time.Second)), true
}
