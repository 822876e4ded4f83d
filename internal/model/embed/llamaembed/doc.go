// Package llamaembed runs an embedding model in this process with
// llama.cpp (through internal/model/llama), and is sponge-embed's main. A
// program that imports it embeds in-process (it sets embed.InProcess); the
// pure programs do not, and start sponge-embed instead. Only sponge-embed
// and tests link it.
package llamaembed
