{{/*
Names, labels and the pieces every workload shares. Components are named by
the service they run (gateway, job-orchestrator, ...); converter pools are
converter-<family>.
*/}}

{{- define "transmute.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "transmute.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The core services: values key, service (component) name, HTTP port. */}}
{{- define "transmute.services" -}}
gateway: { name: gateway, port: 8080 }
jobOrchestrator: { name: job-orchestrator, port: 8081 }
importer: { name: importer, port: 8082 }
exporter: { name: exporter, port: 8083 }
webhookDispatcher: { name: webhook-dispatcher, port: 8084 }
catalogue: { name: catalogue, port: 8085 }
mcp: { name: mcp, port: 8086 }
{{- end }}

{{- define "transmute.converterPort" -}}8090{{- end }}

{{- define "transmute.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "transmute.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: transmute
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Selector labels of one component: call with (dict "root" $ "component" "gateway"). */}}
{{- define "transmute.selectorLabels" -}}
app.kubernetes.io/name: {{ include "transmute.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "transmute.componentLabels" -}}
{{ include "transmute.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* image reference: (dict "root" $ "image" .image) */}}
{{- define "transmute.image" -}}
{{- $tag := .image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- printf "%s%s:%s" .root.Values.image.registry .image.repository (toString $tag) -}}
{{- end }}

{{- define "transmute.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "transmute.fullname" .)) -}}
{{- end }}

{{- define "transmute.natsUrl" -}}
{{- if .Values.nats.enabled -}}
nats://{{ include "transmute.nats.fullname" . }}.{{ .Release.Namespace }}.svc.cluster.local:4222
{{- else -}}
{{- required "externalNats.url is required when nats.enabled is false (nats://host:4222)" .Values.externalNats.url -}}
{{- end -}}
{{- end }}

{{- define "transmute.natsMonitoringEndpoint" -}}
{{- if .Values.nats.enabled -}}
{{ include "transmute.nats.fullname" . }}-headless.{{ .Release.Namespace }}.svc.cluster.local:8222
{{- else -}}
{{- required "externalNats.monitoringEndpoint (host:8222) is required for keda.enabled with an external NATS" .Values.externalNats.monitoringEndpoint -}}
{{- end -}}
{{- end }}

{{- define "transmute.publicUrl" -}}
{{- if .Values.publicUrl -}}
{{- .Values.publicUrl | trimSuffix "/" -}}
{{- else if .Values.ingress.enabled -}}
{{- printf "%s://%s" (ternary "https" "http" (ne .Values.ingress.tlsSecretName "")) .Values.ingress.host -}}
{{- else -}}
{{- printf "http://%s-gateway.%s.svc.cluster.local:8080" (include "transmute.fullname" .) .Release.Namespace -}}
{{- end -}}
{{- end }}

{{- define "transmute.mcpUrl" -}}
{{- if .Values.mcpUrl -}}
{{- .Values.mcpUrl | trimSuffix "/" -}}
{{- else if and .Values.ingress.enabled .Values.ingress.mcpHost -}}
{{- printf "%s://%s/mcp" (ternary "https" "http" (ne .Values.ingress.tlsSecretName "")) .Values.ingress.mcpHost -}}
{{- else -}}
{{- printf "http://%s-mcp.%s.svc.cluster.local:8086/mcp" (include "transmute.fullname" .) .Release.Namespace -}}
{{- end -}}
{{- end }}

{{- define "transmute.storageClaimName" -}}
{{- .Values.storage.fs.persistence.existingClaim | default (printf "%s-storage" (include "transmute.fullname" .)) -}}
{{- end }}

{{/*
Which services read what. One place, checked by the consistency test
(e2e/src/chart) against each service's configuration schema.
*/}}
{{- define "transmute.usesStorage" -}}
{{- has . (list "gateway" "job-orchestrator" "importer" "exporter" "converter") -}}
{{- end }}
{{- define "transmute.usesDownloadTokens" -}}
{{- has . (list "gateway" "job-orchestrator" "exporter") -}}
{{- end }}
{{- define "transmute.usesCredentialsKey" -}}
{{- has . (list "job-orchestrator" "importer" "exporter") -}}
{{- end }}
{{- define "transmute.usesMongodb" -}}
{{- has . (list "gateway" "job-orchestrator" "webhook-dispatcher") -}}
{{- end }}
{{- define "transmute.reachesOutside" -}}
{{- has . (list "importer" "exporter" "webhook-dispatcher") -}}
{{- end }}

{{/*
The non-secret settings of one service, as a map of TRANSMUTE_* variables:
(dict "root" $ "service" "gateway" "port" 8080 "grace" 40 "config" .config).
*/}}
{{- define "transmute.settings" -}}
{{- $root := .root -}}
{{- $settings := dict
  "TRANSMUTE_NATS_URL" (include "transmute.natsUrl" $root)
  "TRANSMUTE_NATS_REPLICAS" (include "transmute.nats.streamReplicas" $root)
  "TRANSMUTE_HTTP_HOST" "0.0.0.0"
  "TRANSMUTE_HTTP_PORT" (toString .port)
  "TRANSMUTE_LOG_LEVEL" $root.Values.logLevel
  "TRANSMUTE_SHUTDOWN_GRACE_MS" (toString (mul (max 5 (sub (int .grace) 10)) 1000))
-}}
{{- if eq (include "transmute.usesStorage" .service) "true" -}}
{{- $_ := set $settings "TRANSMUTE_PUBLIC_URL" (include "transmute.publicUrl" $root) -}}
{{- $_ := set $settings "TRANSMUTE_STORAGE_DRIVER" $root.Values.storage.driver -}}
{{- if eq $root.Values.storage.driver "fs" -}}
{{- $_ := set $settings "TRANSMUTE_STORAGE_FS_ROOT" $root.Values.storage.fs.mountPath -}}
{{- else -}}
{{- $s3 := $root.Values.storage.s3 -}}
{{- $_ := set $settings "TRANSMUTE_STORAGE_S3_ENDPOINT" (include "transmute.s3.endpoint" $root) -}}
{{- $_ := set $settings "TRANSMUTE_STORAGE_S3_PUBLIC_ENDPOINT" $s3.publicEndpoint -}}
{{- $_ := set $settings "TRANSMUTE_STORAGE_S3_REGION" $s3.region -}}
{{- $_ := set $settings "TRANSMUTE_STORAGE_S3_BUCKET" $s3.bucket -}}
{{- $_ := set $settings "TRANSMUTE_STORAGE_S3_CREATE_BUCKET" (toString $root.Values.minio.enabled) -}}
{{- end -}}
{{- end -}}
{{- if has .service (list "gateway" "mcp") -}}
{{- $_ := set $settings "TRANSMUTE_MCP_PUBLIC_URL" (include "transmute.mcpUrl" $root) -}}
{{- end -}}
{{- if eq .service "mcp" -}}
{{- $_ := set $settings "TRANSMUTE_PUBLIC_URL" (include "transmute.publicUrl" $root) -}}
{{- end -}}
{{- if and (eq .service "gateway") $root.Values.gateway.trustedProxies -}}
{{- $_ := set $settings "TRANSMUTE_TRUSTED_PROXIES" (join "," $root.Values.gateway.trustedProxies) -}}
{{- end -}}
{{- if eq .service "gateway" -}}
{{- with $root.Values.gateway.plans -}}
{{- $_ := set $settings "TRANSMUTE_PLANS" (toJson .) -}}
{{- end -}}
{{- $_ := set $settings "TRANSMUTE_DEFAULT_PLAN" $root.Values.gateway.defaultPlan -}}
{{- end -}}
{{- range $name, $value := .config -}}
{{- $_ := set $settings $name (toString $value) -}}
{{- end -}}
{{- toYaml $settings -}}
{{- end }}

{{/* Secret variables of one service, as env entries. */}}
{{- define "transmute.secretEnv" -}}
{{- $secret := include "transmute.secretName" .root -}}
{{- if eq (include "transmute.usesStorage" .service) "true" }}
- name: TRANSMUTE_STORAGE_SIGNING_KEY
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: storage-signing-key } }
{{- if eq .root.Values.storage.driver "s3" }}
- name: TRANSMUTE_STORAGE_S3_ACCESS_KEY_ID
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: s3-access-key-id } }
- name: TRANSMUTE_STORAGE_S3_SECRET_ACCESS_KEY
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: s3-secret-access-key } }
{{- end }}
{{- end }}
{{- if eq (include "transmute.usesDownloadTokens" .service) "true" }}
- name: TRANSMUTE_DOWNLOAD_TOKEN_KEY
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: download-token-key } }
{{- end }}
{{- if eq (include "transmute.usesCredentialsKey" .service) "true" }}
- name: TRANSMUTE_CREDENTIALS_KEY
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: credentials-key } }
{{- end }}
{{- if eq (include "transmute.usesMongodb" .service) "true" }}
- name: TRANSMUTE_MONGODB_URI
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: mongodb-uri } }
{{- end }}
{{- if eq .service "gateway" }}
- name: TRANSMUTE_DEV_API_KEY
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: dev-api-key, optional: true } }
{{- end }}
{{- end }}

{{/*
The pod template of one workload:
(dict "root" $ "service" "gateway" "component" "gateway" "port" 8080 "values" .Values.gateway
      "image" .Values.gateway.image "serviceAccount" "..." "configMap" "..." "tmpSizeLimit" "1Gi")
*/}}
{{- define "transmute.podTemplate" -}}
{{- $root := .root -}}
{{- $v := .values -}}
metadata:
  labels:
    {{- include "transmute.selectorLabels" (dict "root" $root "component" .component) | nindent 4 }}
    app.kubernetes.io/part-of: transmute
    transmute.io/service: {{ .service }}
  annotations:
    checksum/config: {{ .checksum }}
    {{- with $v.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  serviceAccountName: {{ .serviceAccount }}
  automountServiceAccountToken: false
  enableServiceLinks: false
  terminationGracePeriodSeconds: {{ $v.terminationGracePeriodSeconds }}
  securityContext:
    {{- toYaml $root.Values.podSecurityContext | nindent 4 }}
  {{- with $root.Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $v.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $v.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- /* Pods of one workload spread over nodes unless the values say otherwise; a given nodeAffinity keeps this. */}}
  {{- $spread := dict "podAntiAffinity" (dict "preferredDuringSchedulingIgnoredDuringExecution" (list (dict "weight" 100 "podAffinityTerm" (dict "topologyKey" "kubernetes.io/hostname" "labelSelector" (dict "matchLabels" (include "transmute.selectorLabels" (dict "root" $root "component" .component) | fromYaml)))))) }}
  affinity:
    {{- toYaml (merge (deepCopy ($v.affinity | default (dict))) $spread) | nindent 4 }}
  containers:
    - name: {{ .service }}
      image: {{ include "transmute.image" (dict "root" $root "image" .image) }}
      imagePullPolicy: {{ $root.Values.image.pullPolicy }}
      ports:
        - name: http
          containerPort: {{ .port }}
          protocol: TCP
      envFrom:
        - configMapRef:
            name: {{ .configMap }}
      {{- with include "transmute.secretEnv" (dict "root" $root "service" .service) }}
      env:
        {{- . | nindent 8 }}
      {{- end }}
      startupProbe:
        httpGet: { path: /healthz, port: http }
        periodSeconds: 2
        failureThreshold: 60
      livenessProbe:
        httpGet: { path: /healthz, port: http }
        periodSeconds: 10
        timeoutSeconds: 3
        failureThreshold: 3
      readinessProbe:
        httpGet: { path: /readyz, port: http }
        periodSeconds: 5
        timeoutSeconds: 3
        failureThreshold: 2
      resources:
        {{- toYaml $v.resources | nindent 8 }}
      securityContext:
        {{- toYaml $root.Values.securityContext | nindent 8 }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
        {{- if and (eq (include "transmute.usesStorage" .service) "true") (eq $root.Values.storage.driver "fs") }}
        - name: storage
          mountPath: {{ $root.Values.storage.fs.mountPath }}
        {{- end }}
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: {{ .tmpSizeLimit }}
    {{- if and (eq (include "transmute.usesStorage" .service) "true") (eq $root.Values.storage.driver "fs") }}
    - name: storage
      persistentVolumeClaim:
        claimName: {{ include "transmute.storageClaimName" $root }}
    {{- end }}
{{- end }}

{{/* Names of the enabled converter families, comma-separated (empty: none). */}}
{{- define "transmute.enabledFamilies" -}}
{{- $names := list -}}
{{- range $family, $f := .Values.converter.families -}}
{{- if $f.enabled }}{{ $names = append $names $family }}{{ end -}}
{{- end -}}
{{- join "," $names -}}
{{- end }}
