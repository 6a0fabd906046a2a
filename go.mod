module github.com/lite-agent/lite-agent-go

go 1.26.0

require github.com/spf13/cobra v1.10.2

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/klauspost/compress v1.20.4
	github.com/spf13/pflag v1.0.9 // indirect
	golang.org/x/crypto v0.59.0
	golang.org/x/sys v0.50.0 // indirect
)
