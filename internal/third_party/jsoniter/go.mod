module github.com/json-iterator/go

go 1.24.0
