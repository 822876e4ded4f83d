// Package mcp serves the library to coding agents over the Model Context Protocol.
package mcp

import sdk "github.com/modelcontextprotocol/go-sdk/mcp"

var _ = sdk.NewServer
