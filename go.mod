module github.com/lite-agent/lite-agent-go

go 1.26.0
