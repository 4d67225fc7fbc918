// One factory per endpoint file; catalog.cpp dispatches to them.
#pragma once
#include <memory>

#include "endpoint/endpoint.hpp"

namespace inferperf::endpoint {

std::unique_ptr<Endpoint> make_chat_endpoint();
std::unique_ptr<Endpoint> make_completions_endpoint();
std::unique_ptr<Endpoint> make_embeddings_endpoint();
std::unique_ptr<Endpoint> make_chat_embeddings_endpoint();
std::unique_ptr<Endpoint> make_nim_embeddings_endpoint();
std::unique_ptr<Endpoint> make_nim_rankings_endpoint();
std::unique_ptr<Endpoint> make_hf_tei_rankings_endpoint();
std::unique_ptr<Endpoint> make_cohere_rankings_endpoint();
std::unique_ptr<Endpoint> make_huggingface_generate_endpoint();
std::unique_ptr<Endpoint> make_image_generation_endpoint();
std::unique_ptr<Endpoint> make_image_retrieval_endpoint();
std::unique_ptr<Endpoint> make_video_generation_endpoint();
std::unique_ptr<Endpoint> make_solido_rag_endpoint();
core::Result<std::unique_ptr<Endpoint>> make_template_endpoint(
    const std::vector<std::pair<std::string, nlohmann::json>>& extra);
std::unique_ptr<Endpoint> make_responses_endpoint();
std::unique_ptr<Endpoint> make_messages_endpoint();
// image_edit: --extra-inputs prompt, image, url and mask are refused (the endpoint sets them).
core::Result<std::unique_ptr<Endpoint>> make_image_edit_endpoint(
    const std::vector<std::pair<std::string, nlohmann::json>>& extra);
// raw: --extra-inputs response_field:<path> selects the response value.
core::Result<std::unique_ptr<Endpoint>> make_raw_endpoint(
    const std::vector<std::pair<std::string, nlohmann::json>>& extra);

// image_edit's file member for an image (a data: URL or bare base64 of PNG, JPEG, WebP, GIF or
// BMP; the type from the URL, else from the data's first bytes); errors name what is wrong.
core::Result<nlohmann::ordered_json> image_edit_file(std::string_view content);
// The messages of a turn image_edit or raw cannot send.
std::string image_edit_needs_image();
std::string raw_needs_payload();

}  // namespace inferperf::endpoint
