package io.corpora.tenancy.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** The shared, thread-safe Jackson mappers for tenant documents. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final ObjectMapper YAML = new YAMLMapper(new YAMLFactory());

    private Json() {}
}
