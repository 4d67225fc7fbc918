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

}  // namespace inferperf::endpoint
