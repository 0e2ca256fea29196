#if HTTP
import FeedBench

/// `GET /openapi.yaml`: the served API in OpenAPI 3.1, so a team can generate a client
/// (swift-openapi-generator, openapi-generator) and a contract tester (schemathesis) can check
/// every response against it.
enum OpenAPIDocument {
    static let yaml = """
    openapi: 3.1.0
    info:
      title: FeedBench mock feed API and image host (bench serve)
      version: "1"
      description: >-
        A random-image feed in the shape of TheCatAPI's search: pages of image descriptors,
        then the images themselves, under latencies, faults and a network that bench serve
        injects from FeedBench's models.
    paths:
      /v1/images/search:
        get:
          operationId: searchImages
          summary: One page of the feed
          parameters:
            - name: limit
              in: query
              required: false
              schema: {type: integer, minimum: 1, maximum: 10, default: 10}
            - name: page
              in: query
              required: false
              schema: {type: integer, minimum: 1, maximum: 100000, default: 1}
            - {$ref: "#/components/parameters/RequestNumber"}
          responses:
            "200":
              description: The page's images (the first `limit` of its ten)
              content:
                application/json:
                  schema:
                    type: array
                    minItems: 1
                    maxItems: 10
                    items: {$ref: "#/components/schemas/Image"}
            "400": {$ref: "#/components/responses/Error"}
            "429":
              description: Rate limited (injected)
              headers:
                Retry-After:
                  schema: {type: integer, minimum: 1}
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
            "500": {$ref: "#/components/responses/Error"}
            "503": {$ref: "#/components/responses/Error"}
            "504": {$ref: "#/components/responses/Error"}
      /images/{file}:
        get:
          operationId: getImage
          summary: One image as a baseline JPEG of its modelled size
          parameters:
            - name: file
              in: path
              required: true
              schema: {type: string, pattern: "^[0-9]+\\\\.jpg$"}
            - name: w
              in: query
              required: false
              description: The width to send the image at, resized as a CDN would (aspect ratio kept, never enlarged)
              schema: {type: integer, minimum: 1, maximum: 20000}
            - name: If-None-Match
              in: header
              required: false
              schema: {type: string}
            - name: Range
              in: header
              required: false
              description: One range, bytes=first-last, bytes=first- or bytes=-suffix; any other value is ignored (RFC 9110)
              schema: {type: string}
            - {$ref: "#/components/parameters/RequestNumber"}
          responses:
            "200":
              description: The whole image
              headers:
                ETag: {schema: {type: string}}
                Cache-Control: {schema: {type: string}}
                Last-Modified: {schema: {type: string}}
              content:
                image/jpeg:
                  schema: {type: string, format: binary}
            "206":
              description: The requested byte range
              content:
                image/jpeg:
                  schema: {type: string, format: binary}
            "304":
              description: Not modified (If-None-Match matched the ETag)
            "400": {$ref: "#/components/responses/Error"}
            "404": {$ref: "#/components/responses/Error"}
            "416": {$ref: "#/components/responses/Error"}
            "503": {$ref: "#/components/responses/Error"}
      /_conditions:
        get:
          operationId: getConditions
          summary: The injected conditions
          parameters:
            - {$ref: "#/components/parameters/WarmUpCount"}
          responses:
            "200":
              description: The conditions
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Conditions"}
        put:
          operationId: changeConditions
          summary: Change some or all of the conditions; the next request sees them
          requestBody:
            required: true
            content:
              application/json:
                schema: {$ref: "#/components/schemas/ConditionsChange"}
          responses:
            "200":
              description: The conditions now
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Conditions"}
            "400": {$ref: "#/components/responses/Error"}
            "413": {$ref: "#/components/responses/Error"}
      /openapi.yaml:
        get:
          operationId: getOpenAPI
          summary: This document
          responses:
            "200":
              description: OpenAPI 3.1
              content:
                application/yaml:
                  schema: {type: object, required: [openapi, info, paths]}
    components:
      parameters:
        RequestNumber:
          name: FeedBench-Request
          in: header
          required: false
          description: >-
            The request's number in its client's order (1, 2, … as the app made them; a live run
            sends it). A numbered request enters the network model after the client's requests
            numbered before it, waiting for them at most 5 ms; any other value is ignored.
          schema: {type: integer, minimum: 1}
        WarmUpCount:
          name: FeedBench-Warm-Up
          in: header
          required: false
          description: >-
            A live run's warm-up: the answer waits until this many requests of the client
            carrying the header are waiting, or 1 s has passed, so that each came on a connection
            of its own. Any value but a whole number in 1…1001 is ignored.
          schema: {type: integer, minimum: 1, maximum: 1001}
      responses:
        Error:
          description: An error, in one line
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Error"}
      schemas:
        Image:
          type: object
          required: [id, url, width, height]
          properties:
            id: {type: string}
            url: {type: string}
            width: {type: integer, minimum: 1}
            height: {type: integer, minimum: 1}
        Error:
          type: object
          required: [error]
          properties:
            error: {type: string}
        Latency:
          oneOf:
            - type: object
              additionalProperties: false
              required: [model, ms]
              properties:
                model: {const: fixed}
                ms: {type: number, minimum: 0, maximum: 86400000}
            - type: object
              additionalProperties: false
              required: [model, minMs, maxMs]
              properties:
                model: {const: uniform}
                minMs: {type: number, minimum: 0, maximum: 86400000}
                maxMs: {type: number, minimum: 0, maximum: 86400000}
            - type: object
              additionalProperties: false
              required: [model, meanMs, p99Ms]
              properties:
                model: {const: logNormal}
                meanMs: {type: number, exclusiveMinimum: 0, maximum: 86400000}
                p99Ms: {type: number, exclusiveMinimum: 0, maximum: 86400000}
        Network:
          type: object
          additionalProperties: false
          properties:
            name: {type: string, minLength: 1}
            bitsPerSecond: {type: integer, minimum: 1000, maximum: 100000000000}
            uplinkBitsPerSecond: {type: integer, minimum: 1000, maximum: 100000000000}
            downlinkTrace: {type: string, description: "a recorded downlink's file (a recorded preset's; a PUT may not name files)"}
            uplinkTrace: {type: string, description: "a recorded uplink's file (a recorded preset's; a PUT may not name files)"}
            recordingStartMs: {type: integer, minimum: 0, maximum: 86400000}
            oneWayDelayMs:
              oneOf:
                - {type: number, minimum: 0, maximum: 86400000}
                - {type: array, items: {type: number, minimum: 0, maximum: 86400000}, minItems: 2, maxItems: 2}
            jitterMs: {type: number, minimum: 0, maximum: 86400000}
            uplinkDelayMs: {type: number, minimum: 0, maximum: 86400000}
            loss: {type: number, minimum: 0, maximum: 0.9}
            uplinkLoss: {type: number, minimum: 0, maximum: 0.9}
            bufferPackets: {type: integer, minimum: 1, maximum: 1000000}
            initialWindowSegments: {type: integer, minimum: 1, maximum: 1000}
            maxSegmentBytes: {type: integer, minimum: 536, maximum: 65483}
            slowStartAfterIdle: {type: boolean}
            cubicPausesWhenIdle: {type: boolean}
            recoveryTimeoutKeepsThreshold: {type: boolean}
            tls: {type: boolean}
            http: {enum: [\(HTTPVersion.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))], description: '"2" only over TLS (bench serve --tls), where clients negotiate it'}
            connectionsPerHost: {type: integer, minimum: 1, maximum: 1000}
            maxConcurrentStreams: {type: integer, minimum: 1, maximum: 1000000}
            streamWindowBytes: {type: integer, minimum: 1, maximum: 2147483647}
            connectionWindowBytes: {type: integer, minimum: 65535, maximum: 2147483647}
            idleTimeoutMs: {type: number, minimum: 0, maximum: 86400000}
            retryTimeoutMs: {type: number, minimum: 0, maximum: 86400000}
            maxRetries: {type: integer, minimum: 0, maximum: 100}
        API:
          type: object
          additionalProperties: false
          properties:
            latency: {$ref: "#/components/schemas/Latency"}
            spikeProbability: {type: number, minimum: 0, maximum: 1}
            spikeMultiplier: {type: number, minimum: 1, maximum: 1000000}
            failureProbability: {type: number, minimum: 0, maximum: 1}
            timeoutMs: {type: [number, "null"], exclusiveMinimum: 0, maximum: 86400000}
            rateLimit:
              oneOf:
                - type: "null"
                - type: object
                  additionalProperties: false
                  required: [calls, windowMs]
                  properties:
                    calls: {type: integer, minimum: 1, maximum: 1000000}
                    windowMs: {type: number, exclusiveMinimum: 0, maximum: 86400000}
        Conditions:
          type: object
          required: [network, api, offline]
          properties:
            network: {$ref: "#/components/schemas/Network"}
            api: {$ref: "#/components/schemas/API"}
            offline: {type: boolean}
        ConditionsChange:
          type: object
          additionalProperties: false
          properties:
            network:
              oneOf:
                - type: string
                  enum: [wifi, dsl, lte, 3g, edge, very-bad, verizon-lte, tmobile-lte, att-lte-driving, tmobile-umts-driving]
                - {$ref: "#/components/schemas/Network"}
            api: {$ref: "#/components/schemas/API"}
            offline: {type: boolean}

    """
}
#endif
