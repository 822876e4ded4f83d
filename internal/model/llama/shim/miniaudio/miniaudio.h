/*
 * miniaudio.h stand-in for building github.com/ollama/ollama/llama.
 *
 * The Go module zip of ollama drops llama.cpp's vendor/ folder, and with it
 * miniaudio, which only llama.cpp's multimodal helper uses to decode audio
 * clips. sponge never passes audio to the model, so this header declares just
 * what mtmd-helper.cpp calls, and every call fails: an audio input is refused
 * instead of decoded. The include path is set by the Makefile (CGO_CFLAGS and
 * CGO_CXXFLAGS: -I internal/llama/shim).
 */
#ifndef SPONGE_MINIAUDIO_SHIM_H
#define SPONGE_MINIAUDIO_SHIM_H

#include <stddef.h>

#ifndef MA_API
#define MA_API static
#endif

typedef unsigned long long ma_uint64;
typedef unsigned int ma_uint32;
typedef int ma_result;

#define MA_SUCCESS 0
#define MA_NOT_IMPLEMENTED (-29)

typedef enum { ma_format_unknown = 0, ma_format_f32 = 5 } ma_format;
typedef enum { ma_encoding_format_unknown = 0, ma_encoding_format_wav = 1 } ma_encoding_format;

typedef struct {
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_decoder_config;

typedef struct {
    int unused;
} ma_decoder;

typedef struct {
    ma_encoding_format encodingFormat;
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_encoder_config;

typedef struct {
    int unused;
} ma_encoder;

#if defined(__GNUC__)
#define MA_SHIM_UNUSED __attribute__((unused))
#else
#define MA_SHIM_UNUSED
#endif

MA_SHIM_UNUSED MA_API ma_decoder_config ma_decoder_config_init(ma_format format, ma_uint32 channels, ma_uint32 sampleRate) {
    ma_decoder_config c;
    c.format = format;
    c.channels = channels;
    c.sampleRate = sampleRate;
    return c;
}

MA_SHIM_UNUSED MA_API ma_result ma_decoder_init_memory(const void *data, size_t size, const ma_decoder_config *config, ma_decoder *decoder) {
    (void)data; (void)size; (void)config; (void)decoder;
    return MA_NOT_IMPLEMENTED;
}

MA_SHIM_UNUSED MA_API ma_result ma_decoder_get_length_in_pcm_frames(ma_decoder *decoder, ma_uint64 *length) {
    (void)decoder;
    if (length) *length = 0;
    return MA_NOT_IMPLEMENTED;
}

MA_SHIM_UNUSED MA_API ma_result ma_decoder_read_pcm_frames(ma_decoder *decoder, void *frames, ma_uint64 count, ma_uint64 *read) {
    (void)decoder; (void)frames; (void)count;
    if (read) *read = 0;
    return MA_NOT_IMPLEMENTED;
}

MA_SHIM_UNUSED MA_API ma_result ma_decoder_uninit(ma_decoder *decoder) {
    (void)decoder;
    return MA_SUCCESS;
}

MA_SHIM_UNUSED MA_API ma_encoder_config ma_encoder_config_init(ma_encoding_format encodingFormat, ma_format format, ma_uint32 channels, ma_uint32 sampleRate) {
    ma_encoder_config c;
    c.encodingFormat = encodingFormat;
    c.format = format;
    c.channels = channels;
    c.sampleRate = sampleRate;
    return c;
}

MA_SHIM_UNUSED MA_API ma_result ma_encoder_init_file(const char *path, const ma_encoder_config *config, ma_encoder *encoder) {
    (void)path; (void)config; (void)encoder;
    return MA_NOT_IMPLEMENTED;
}

MA_SHIM_UNUSED MA_API ma_result ma_encoder_write_pcm_frames(ma_encoder *encoder, const void *frames, ma_uint64 count, ma_uint64 *written) {
    (void)encoder; (void)frames; (void)count;
    if (written) *written = 0;
    return MA_NOT_IMPLEMENTED;
}

MA_SHIM_UNUSED MA_API void ma_encoder_uninit(ma_encoder *encoder) {
    (void)encoder;
}

#endif
