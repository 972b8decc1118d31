/** The HTTP API of HTTP-API.md on Jetty 12: Host guard, auth and scopes, routes, answers. */
package dev.clique.engine.http;
