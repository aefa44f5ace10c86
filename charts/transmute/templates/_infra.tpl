{{/*
Names and settings of the bundled servers (NATS, the MongoDB-wire store,
MinIO), shared by their templates, the services' settings and the network
policies.
*/}}

{{- define "transmute.nats.fullname" -}}
{{- printf "%s-nats" (include "transmute.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{- define "transmute.ferretdb.fullname" -}}
{{- printf "%s-ferretdb" (include "transmute.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{- define "transmute.minio.fullname" -}}
{{- printf "%s-minio" (include "transmute.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{/* The bundled NATS server's configuration file (nats.conf). */}}
{{- define "transmute.nats.config" -}}
{{- $n := .Values.nats -}}
{{- $name := include "transmute.nats.fullname" . -}}
# server_name is the pod's name: JetStream needs one stable name per
# server, and KEDA's scaler finds a consumer's leader by it.
server_name: $POD_NAME
listen: 0.0.0.0:4222
http: 0.0.0.0:8222
# In lame-duck mode (`nats-server --signal ldm`, before a planned restart)
# clients move to the other servers over this time; 30 s is NATS's minimum.
lame_duck_duration: 30s
lame_duck_grace_period: 5s
jetstream {
  store_dir: /data
  max_file_store: {{ $n.jetstream.maxFileStore }}
  max_memory_store: {{ $n.jetstream.maxMemoryStore }}
}
{{- if gt (int $n.replicas) 1 }}
cluster {
  name: {{ $name }}
  listen: 0.0.0.0:6222
  routes: [
    {{- range $i := until (int $n.replicas) }}
    nats://{{ $name }}-{{ $i }}.{{ $name }}-headless.{{ $.Release.Namespace }}.svc.cluster.local:6222
    {{- end }}
  ]
}
{{- end }}
{{- end }}

{{/*
How many servers keep a copy of each stream and bucket: three where the
bundled cluster has three or more, else one; with an external NATS, what
externalNats.replicas says.
*/}}
{{- define "transmute.nats.streamReplicas" -}}
{{- if .Values.nats.enabled -}}
{{- min 3 (int .Values.nats.replicas) -}}
{{- else -}}
{{- .Values.externalNats.replicas | default 1 -}}
{{- end -}}
{{- end }}

{{/* The bundled MongoDB-wire store's connection string (no credentials: see values.yaml, ferretdb). */}}
{{- define "transmute.ferretdb.uri" -}}
{{- printf "mongodb://%s.%s.svc.cluster.local:27017/%s" (include "transmute.ferretdb.fullname" .) .Release.Namespace .Values.ferretdb.database -}}
{{- end }}

{{/* The S3 endpoint the services use: storage.s3.endpoint, else the bundled MinIO's in-cluster address. */}}
{{- define "transmute.s3.endpoint" -}}
{{- if .Values.storage.s3.endpoint -}}
{{- .Values.storage.s3.endpoint -}}
{{- else if .Values.minio.enabled -}}
{{- printf "http://%s.%s.svc.cluster.local:9000" (include "transmute.minio.fullname" .) .Release.Namespace -}}
{{- end -}}
{{- end }}
