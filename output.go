package liteagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lite-agent/lite-agent-go/tool"
)

// FinalAnswerTool is the name of the tool an agent with an
// [Options.OutputSchema] offers for the structured answer.
const FinalAnswerTool = "final_answer"

// finalAnswerPrompt is the section the system prompt gets with an output
// schema, after the host's own prompt too.
const finalAnswerPrompt = `

# Final answer
When the task is done, call the final_answer tool once with your answer as its input, following its
schema exactly; it records the answer for the program that asked. If it reports an invalid input,
correct the input and call it again. Then end your turn.`

// ErrNoOutput is returned by [DecodeOutput] for a result without a
// structured answer: the model never called final_answer with valid
// input in that prompt.
var ErrNoOutput = errors.New("liteagent: the prompt produced no final answer")

// OutputSchemaFor returns the JSON Schema inferred for T, for
// [Options.OutputSchema], by the rules that infer tool input schemas (see
// the tool package): T must be a struct or a map with string keys.
func OutputSchemaFor[T any]() (json.RawMessage, error) {
	s, err := tool.SchemaFor[T]()
	if err != nil {
		return nil, fmt.Errorf("liteagent: OutputSchemaFor: %w", err)
	}
	return s, nil
}

// DecodeOutput decodes the structured answer of res into a T. It returns
// [ErrNoOutput] when res has none.
func DecodeOutput[T any](res *Result) (T, error) {
	var v T
	if res == nil || res.Output == nil {
		return v, ErrNoOutput
	}
	if err := json.Unmarshal(res.Output, &v); err != nil {
		return v, fmt.Errorf("liteagent: decode final answer: %w", err)
	}
	return v, nil
}

// finalAnswerTool returns the final_answer tool for schema. Its accepted
// input becomes the Output of the prompt that called it.
func finalAnswerTool(schema json.RawMessage) (tool.Tool, error) {
	t, err := tool.NewRaw(FinalAnswerTool, "Record the final answer of the task, as the input of this tool, following its schema. Call it once, when the task is done.", schema,
		func(ctx context.Context, c *tool.Call, input json.RawMessage) (tool.Result, error) {
			if !c.SetOutput(input) {
				return tool.Errorf("final_answer can only be called by the model during a prompt"), nil
			}
			return tool.Text("Final answer recorded."), nil
		})
	if err != nil {
		return nil, &OptionError{Field: "OutputSchema", Message: "OutputSchema", Err: err}
	}
	return t, nil
}
