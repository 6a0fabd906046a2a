package anthropic

import (
	"bufio"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/lite-agent/lite-agent-go/model"
)

// maxMessage bounds the length of an error message taken from a response
// body that is not the API's JSON (an HTML page from a proxy, say).
const maxMessage = 512

// typeStatus returns the HTTP status an API error type stands for, used to
// classify an error event that arrives inside a 200 stream, or 0 for a type
// it does not know.
func typeStatus(errorType string) int {
	switch errorType {
	case "invalid_request_error":
		return http.StatusBadRequest
	case "authentication_error":
		return http.StatusUnauthorized
	case "billing_error":
		return http.StatusPaymentRequired
	case "permission_error":
		return http.StatusForbidden
	case "not_found_error":
		return http.StatusNotFound
	case "request_too_large":
		return http.StatusRequestEntityTooLarge
	case "rate_limit_error":
		return http.StatusTooManyRequests
	case "api_error":
		return http.StatusInternalServerError
	case "timeout_error":
		return http.StatusGatewayTimeout
	case "overloaded_error":
		return 529
	}
	return 0
}

// streamError turns the error that ended a stream into a *model.Error.
// started says whether a chunk had been yielded. A nil err means the stream
// ended without message_stop.
func (p *Provider) streamError(err error, started bool) *model.Error {
	if err == nil {
		e := model.NewError(model.ClassStream, 0, "stream ended before message_stop", nil)
		if !started {
			e.Class = model.ClassNetwork
		}
		e.Started = started
		return e
	}
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		if apiErr.StatusCode >= 400 {
			return p.statusError(apiErr, started)
		}
		return eventError(apiErr, started)
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	class := model.ClassNetwork
	msg := err.Error()
	switch {
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		class, msg = model.ClassStream, "malformed stream event: "+msg
	case errors.Is(err, bufio.ErrTooLong), started:
		class = model.ClassStream
	}
	e := model.NewError(class, 0, msg, err)
	e.Started = started
	return e
}

// statusError maps an HTTP error response.
func (p *Provider) statusError(apiErr *sdk.Error, started bool) *model.Error {
	msg := apiMessage(apiErr)
	e := model.NewError(model.ClassifyStatus(apiErr.StatusCode, msg), apiErr.StatusCode, msg, apiErr)
	if apiErr.Response != nil {
		e.RetryAfter = retryAfter(apiErr.Response.Header.Get("Retry-After"), p.now())
	}
	e.Started = started
	return e
}

// eventError maps an error event received inside a stream, classifying it
// by the status its error type stands for.
func eventError(apiErr *sdk.Error, started bool) *model.Error {
	msg := apiMessage(apiErr)
	status := typeStatus(string(apiErr.Type()))
	class := model.ClassStream
	if status != 0 {
		class = model.ClassifyStatus(status, msg)
	}
	e := model.NewError(class, status, msg, apiErr)
	e.Started = started
	return e
}

// apiMessage returns the API's error message, else a bounded copy of the
// raw body, else the status text.
func apiMessage(apiErr *sdk.Error) string {
	msg := apiErr.Message
	if msg == "" {
		msg = strings.TrimSpace(apiErr.RawJSON())
		if len(msg) > maxMessage {
			msg = strings.ToValidUTF8(msg[:maxMessage], "") + "…"
		}
	}
	if msg == "" && apiErr.StatusCode >= 400 {
		msg = http.StatusText(apiErr.StatusCode)
	}
	return msg
}

// retryAfter parses a Retry-After value, delay-seconds or an HTTP date,
// relative to now. It returns 0 for an empty, malformed or past value.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 || math.IsNaN(secs) || secs > math.MaxInt64/float64(time.Second) {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
